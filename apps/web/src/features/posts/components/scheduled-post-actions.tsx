import { endpoints, POST_SCHEDULE, type PagePost, type PostActResult } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Flex, Form, Modal, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api-client';
import { confirmAction } from '@/lib/confirm';
import { formatDateTime } from '@/lib/format';
import '@/locales/launch-namespace';

// Rescheduling and cancelling scheduled posts (帖子管理): a post made here that the platform will
// publish later may move to another time inside the window, or be deleted from its page before
// it goes live. The server checks every post again and answers one result per post.

/** A post made here that the platform publishes later, and whose time has not come. */
export function isScheduledAhead(p: PagePost, now = Date.now()): boolean {
  return p.status === 'created' && !p.published && p.scheduled_at !== null && Date.parse(p.scheduled_at) > now;
}

/** The schedule's window (POST_SCHEDULE); the server checks it again. */
export function scheduleProblem(at: dayjs.Dayjs, now = Date.now()): 'scheduleTooSoon' | 'scheduleTooLate' | null {
  const ahead = at.valueOf() - now;
  if (ahead < POST_SCHEDULE.minMinutes * 60_000) return 'scheduleTooSoon';
  if (ahead > POST_SCHEDULE.maxDays * 86_400_000) return 'scheduleTooLate';
  return null;
}

/** Days the picker offers: today to the window's last day. */
const outsideWindow = (d: dayjs.Dayjs) => d.isBefore(dayjs().startOf('day')) || d.isAfter(dayjs().add(POST_SCHEDULE.maxDays, 'day').endOf('day'));

type Act = 'reschedule' | 'cancel';
interface Outcome {
  act: Act;
  rows: PagePost[];
  results: PostActResult[];
}

/**
 * The reschedule and cancel actions for posts of the list: `reschedule(rows)` opens the time
 * picker, `cancel(rows)` the confirmation; `dialogs` must be rendered. `onDone` gets the posts
 * acted on successfully (to unselect them).
 */
export function useScheduledPostActions(onDone: (okIds: number[]) => void) {
  const { t } = useTranslation('launch');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<PagePost[] | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const reschedule = useMutation({ mutationFn: (body: { ids: number[]; scheduled_at: string }) => api.call(endpoints.pagePosts.reschedule, body) });
  const cancel = useMutation({ mutationFn: (ids: number[]) => api.call(endpoints.pagePosts.cancel, { ids }) });

  const finish = async (act: Act, rows: PagePost[], results: PostActResult[]) => {
    const ok = results.filter((r) => r.result === 'ok').map((r) => r.id);
    const failed = results.length - ok.length;
    const text = t(`post.${act}.done`, { ok: ok.length, failed });
    if (failed) message.warning(text);
    else message.success(text);
    setOutcome({ act, rows, results });
    onDone(ok);
    await queryClient.invalidateQueries({ queryKey: ['page-posts'] });
  };

  const confirmReschedule = (rows: PagePost[], at: dayjs.Dayjs) => {
    const when = at.second(0).millisecond(0);
    confirmAction(modal, {
      title: t('post.reschedule.confirmTitle', { count: rows.length, at: when.format('YYYY-MM-DD HH:mm') }),
      content: t('post.reschedule.confirmBody'),
      action: async () => {
        const res = await reschedule.mutateAsync({ ids: rows.map((r) => r.id), scheduled_at: when.toISOString() });
        setTarget(null);
        await finish('reschedule', rows, res.results);
      },
    });
  };

  const confirmCancel = (rows: PagePost[]) =>
    confirmAction(modal, {
      title: t('post.cancel.confirmTitle', { count: rows.length }),
      content: t('post.cancel.confirmBody'),
      okText: t('post.cancel.ok'),
      danger: true,
      action: async () => {
        const res = await cancel.mutateAsync(rows.map((r) => r.id));
        await finish('cancel', rows, res.results);
      },
    });

  const dialogs = (
    <>
      {target && <RescheduleDialog rows={target} onClose={() => setTarget(null)} onSubmit={(at) => confirmReschedule(target, at)} />}
      {outcome && <ResultsDialog outcome={outcome} onClose={() => setOutcome(null)} />}
    </>
  );
  return { reschedule: (rows: PagePost[]) => setTarget(rows), cancel: confirmCancel, pending: reschedule.isPending || cancel.isPending, dialogs };
}

function RescheduleDialog({ rows, onClose, onSubmit }: { rows: PagePost[]; onClose: () => void; onSubmit: (at: dayjs.Dayjs) => void }) {
  const { t } = useTranslation('launch');
  const [form] = Form.useForm<{ scheduled_at?: dayjs.Dayjs }>();
  const only = rows.length === 1 ? rows[0] : undefined;
  const bounds = { min: POST_SCHEDULE.minMinutes, max: POST_SCHEDULE.maxDays };
  return (
    <Modal
      open
      title={t('post.reschedule.title', { count: rows.length })}
      okText={t('post.reschedule.submit')}
      onOk={() => form.validateFields().then((v) => onSubmit(v.scheduled_at!), () => undefined)}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical">
        {only?.scheduled_at && <Typography.Paragraph type="secondary">{t('post.reschedule.current', { at: formatDateTime(only.scheduled_at) })}</Typography.Paragraph>}
        <Form.Item
          name="scheduled_at"
          label={t('post.form.scheduledAt')}
          extra={t('post.form.scheduleHelp', bounds)}
          rules={[
            { required: true, message: t('post.form.scheduleRequired') },
            {
              validator: (_, v: dayjs.Dayjs | undefined) => {
                const problem = v ? scheduleProblem(v) : null;
                return problem ? Promise.reject(new Error(t(`post.form.${problem}`, bounds))) : Promise.resolve();
              },
            },
          ]}
        >
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" disabledDate={outsideWindow} style={{ width: 220 }} aria-label={t('post.form.scheduledAt')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** One row per post acted on: done, or why not (our refusal or the platform's reason). */
function ResultsDialog({ outcome, onClose }: { outcome: Outcome; onClose: () => void }) {
  const { t } = useTranslation('launch');
  const rowOf = new Map(outcome.rows.map((r) => [r.id, r]));
  const failed = outcome.results.filter((r) => r.result === 'failed').length;
  return (
    <Modal open title={t('post.results.title')} onCancel={onClose} width={720} footer={<Button onClick={onClose}>{t('post.results.close')}</Button>}>
      <Flex vertical gap={12}>
        <Alert
          type={failed === 0 ? 'success' : failed === outcome.results.length ? 'error' : 'warning'}
          showIcon
          title={t(`post.${outcome.act}.done`, { ok: outcome.results.length - failed, failed })}
        />
        <Table<PostActResult>
          size="small"
          rowKey="id"
          data-testid="post-act-results"
          dataSource={outcome.results}
          pagination={outcome.results.length > 10 ? { pageSize: 10, size: 'small' } : false}
          columns={[
            {
              key: 'post',
              title: t('post.results.post'),
              render: (_, r) => (
                <Flex vertical>
                  <Typography.Text ellipsis style={{ maxWidth: 380 }}>
                    {rowOf.get(r.id)?.message ?? `#${r.id}`}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {rowOf.get(r.id)?.page.name}
                  </Typography.Text>
                </Flex>
              ),
            },
            {
              key: 'result',
              title: t('post.results.result'),
              width: 260,
              render: (_, r) => (
                <Flex vertical gap={4}>
                  <Tag color={r.result === 'ok' ? 'success' : 'error'} style={{ width: 'fit-content' }}>
                    {t(`post.results.${r.result}`)}
                  </Tag>
                  {r.error && <Typography.Text type="danger">{r.error}</Typography.Text>}
                </Flex>
              ),
            },
          ]}
        />
      </Flex>
    </Modal>
  );
}
