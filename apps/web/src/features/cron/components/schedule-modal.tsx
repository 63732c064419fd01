import type { CronJob } from '@ads/contracts';
import { App, Button, Flex, Form, Input, Modal, Tag, Tooltip, Typography, theme } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative } from '@/lib/format';
import { applyFieldErrors } from '@/lib/form-errors';
import { useUpdateCronJob } from '../api/use-update-cron-job';
import { checkCron, nextRuns } from './cron-expression';
import { useExplainCron } from './use-explain-cron';

const PRESETS = [
  ['every5', '*/5 * * * *'],
  ['every15', '*/15 * * * *'],
  ['hourly', '0 * * * *'],
  ['every6h', '0 */6 * * *'],
  ['daily', '0 3 * * *'],
  ['weekdays', '0 9 * * 1-5'],
  ['weekly', '0 0 * * 1'],
  ['monthly', '0 0 1 * *'],
] as const;

const PREVIEW_RUNS = 3;

/** Spacing as the server stores it ("0  3 * * *" → "0 3 * * *"). */
export const normalizeCron = (expr: string) => expr.trim().split(/\s+/).join(' ');

interface Props {
  job: CronJob | null;
  onClose: () => void;
}

/** 修改计划: a cron expression checked as typed, read back in words, with the next run times. */
export function ScheduleModal({ job, onClose }: Props) {
  const { t } = useTranslation('cron');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const [form] = Form.useForm<{ schedule: string }>();
  const update = useUpdateCronJob();
  const explain = useExplainCron();
  const value = Form.useWatch('schedule', form) ?? '';

  useEffect(() => {
    if (!job) return;
    form.resetFields();
    form.setFieldsValue({ schedule: job.schedule ?? job.default_schedule ?? '' });
  }, [job, form]);

  const check = checkCron(value);
  const normalized = normalizeCron(value);
  const sameAsDefault = Boolean(job?.default_schedule) && normalized === job?.default_schedule;
  const explanation = explain(value);
  // Searching for runs of a schedule that never fires takes a while: once per expression, not per render.
  const upcoming = useMemo(() => (check.status === 'valid' ? nextRuns(normalized, new Date(), PREVIEW_RUNS) : []), [check.status, normalized]);

  const setSchedule = (expr: string) => {
    form.setFieldsValue({ schedule: expr });
    // A choice replaces what was typed: drop its error (or show the new one).
    form.validateFields(['schedule']).catch(() => undefined);
  };

  const handleFinish = async ({ schedule }: { schedule: string }) => {
    if (!job) return;
    const next = normalizeCron(schedule);
    try {
      // The default typed back in means "follow the default" rather than a copy of it.
      await update.mutateAsync({ name: job.name, schedule: next === job.default_schedule ? null : next });
      message.success(t('schedule.saved', { title: job.title }));
      onClose();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  return (
    <Modal
      open={job !== null}
      title={job ? t('schedule.title', { title: job.title }) : ''}
      onCancel={onClose}
      // Kept mounted so the form instance stays connected; fields are reset on every open.
      forceRender
      width={560}
      footer={
        <Flex justify="space-between" gap={8}>
          <span>
            {job?.default_schedule && (
              <Button disabled={normalized === job.default_schedule} onClick={() => setSchedule(job.default_schedule!)}>
                {t('schedule.useDefault')}
              </Button>
            )}
          </span>
          <Flex gap={8}>
            <Button onClick={onClose}>{tc('actions.cancel')}</Button>
            <Button type="primary" loading={update.isPending} onClick={() => form.submit()}>
              {tc('actions.save')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void handleFinish(v)}>
        <Form.Item
          name="schedule"
          label={t('schedule.expression')}
          extra={t('schedule.expressionHelp')}
          validateFirst
          rules={[
            { required: true, whitespace: true, message: t('schedule.required') },
            {
              validator: async (_, v: string) => {
                const c = checkCron(v ?? '');
                if (c.status === 'valid') return;
                if (c.status === 'fieldCount') throw new Error(t('schedule.fields'));
                throw new Error(c.field ? t('schedule.invalidField', { field: t(`schedule.fieldNames.${c.field}`) }) : t('schedule.invalid'));
              },
            },
          ]}
        >
          <Input placeholder={t('schedule.placeholder')} autoComplete="off" spellCheck={false} style={{ fontFamily: token.fontFamilyCode }} />
        </Form.Item>
      </Form>
      <Flex vertical gap={12}>
        <Flex gap={6} wrap align="center">
          <Typography.Text type="secondary">{t('schedule.presets')}</Typography.Text>
          {PRESETS.map(([key, expr]) => (
            <Tooltip key={key} title={expr}>
              <Tag.CheckableTag checked={normalized === expr} onChange={() => setSchedule(expr)}>
                {t(`schedule.presetLabels.${key}`)}
              </Tag.CheckableTag>
            </Tooltip>
          ))}
        </Flex>
        <Flex
          vertical
          gap={6}
          data-testid="schedule-preview"
          aria-live="polite"
          style={{ padding: '10px 12px', background: token.colorFillQuaternary, borderRadius: token.borderRadius }}
        >
          <Typography.Text strong>{t('schedule.preview')}</Typography.Text>
          {check.status === 'valid' ? (
            <>
              {explanation && <Typography.Text>{explanation.text}</Typography.Text>}
              {explanation?.local && <Typography.Text type="secondary">{explanation.local}</Typography.Text>}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('schedule.nextRuns')}
              </Typography.Text>
              {upcoming.length ? (
                <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                  {upcoming.map((d) => (
                    <li key={d.getTime()} style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatDateTime(d.toISOString())}
                      <Typography.Text type="secondary">{` · ${formatRelative(d.toISOString())}`}</Typography.Text>
                    </li>
                  ))}
                </ul>
              ) : (
                <Typography.Text type="secondary">{t('schedule.noNextRuns')}</Typography.Text>
              )}
            </>
          ) : (
            <Typography.Text type="secondary">{tc('dash')}</Typography.Text>
          )}
          {sameAsDefault && <Typography.Text type="secondary">{t('schedule.sameAsDefault')}</Typography.Text>}
          {job?.default_schedule && !sameAsDefault && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('schedule.default', { schedule: [job.default_schedule, explain(job.default_schedule)?.text].filter(Boolean).join(' · ') })}
            </Typography.Text>
          )}
        </Flex>
      </Flex>
    </Modal>
  );
}
