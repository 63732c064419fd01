import { endpoints, type StartCampaign, type StartResult, type StartScheme, type StartTask, taskStatusSchema } from '@ads/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, DatePicker, Drawer, Flex, Form, Input, Radio, Select, Table, Tabs, Tag, Typography } from 'antd';
import type dayjs from 'dayjs';
import { useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FilterBar, ListTable, urlInt, useListQuery, type ListColumn } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { TaskStatusTag } from '@/components/task-status-tag';
import { useRouteTitle } from '@/components/use-route-title';
import { api } from '@/lib/api-client';
import { confirmAction } from '@/lib/confirm';
import { formatDateTime } from '@/lib/format';
import '@/locales/launch-namespace';

// 启动管理 (/advertising/start): the start tasks (on now / at a time, off at a time) of the caller's
// scope with their per-object results and cancel while pending; and a form that picks campaigns or
// whole schemes and queues the tasks. Times are wall times in each target market's zone or one chosen zone.

const querySchema = z.object({
  tab: z.enum(['tasks', 'create']).default('tasks'),
  page: urlInt.pipe(z.number().min(1)).default(1),
  page_size: urlInt.pipe(z.number().min(1).max(100)).default(20),
  status: taskStatusSchema.optional(),
  action: z.enum(['activate', 'pause']).optional(),
});

const ZONES = ['Asia/Shanghai', 'UTC', 'America/Los_Angeles', 'America/New_York', 'Europe/London', 'Europe/Berlin', 'Asia/Tokyo', 'Asia/Singapore', 'Asia/Bangkok', 'Australia/Sydney'];
const LOCAL_FORMAT = 'YYYY-MM-DDTHH:mm';
const keys = { all: ['start-tasks'] as const };

function ResultsDrawer({ task, onClose }: { task: StartTask | null; onClose: () => void }) {
  const { t } = useTranslation('launch');
  const results = useQuery({ queryKey: [...keys.all, 'results', task?.id], queryFn: () => api.call(endpoints.startTasks.results, { id: task!.id }), enabled: task !== null });
  return (
    <Drawer open={task !== null} onClose={onClose} title={t('start.results')} width={720} destroyOnHidden>
      <Table<StartResult>
        size="small"
        rowKey="id"
        loading={results.isPending}
        dataSource={results.data?.list ?? []}
        pagination={false}
        columns={[
          { key: 'object', title: t('start.resultCols.object'), render: (_, r) => r.object_name },
          { key: 'account', title: t('start.resultCols.account'), render: (_, r) => r.ad_account?.name ?? '-' },
          { key: 'result', title: t('start.resultCols.result'), render: (_, r) => <Tag color={r.result === 'ok' ? 'success' : r.result === 'failed' ? 'error' : 'processing'}>{t(`start.result.${r.result as 'ok'}`, { defaultValue: r.result })}</Tag> },
          { key: 'error', title: t('start.resultCols.error'), render: (_, r) => r.error ?? '-' },
          { key: 'at', title: t('start.resultCols.at'), render: (_, r) => formatDateTime(r.created_at) },
        ]}
      />
    </Drawer>
  );
}

function TaskList({ list }: { list: ReturnType<typeof useStartQuery> }) {
  const { t } = useTranslation('launch');
  const { t: tAssets } = useTranslation('assets');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const { query } = list;
  const [open, setOpen] = useState<StartTask | null>(null);
  const body = { page: query.page, page_size: query.page_size, ...(query.status && { status: query.status }), ...(query.action && { action: query.action }) };
  const tasks = useQuery({
    queryKey: [...keys.all, 'list', body],
    queryFn: () => api.call(endpoints.startTasks.list, body),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((r) => r.status === 'running') ? 3000 : false),
  });
  const cancel = (task: StartTask) =>
    confirmAction(modal, {
      title: t('start.cancelTitle', { id: task.id }),
      content: t('start.cancelBody'),
      danger: true,
      action: async () => {
        await api.call(endpoints.startTasks.cancel, { id: task.id });
        message.success(t('start.cancelled'));
        await queryClient.invalidateQueries({ queryKey: keys.all });
      },
    });
  const columns: ListColumn<StartTask>[] = [
    { key: 'id', title: t('start.columns.id'), width: 80, locked: true, render: (_, r) => `#${r.id}` },
    {
      key: 'action',
      title: t('start.columns.action'),
      width: 110,
      render: (_, r) => (
        <Flex vertical>
          <Tag color={r.action === 'activate' ? 'green' : 'orange'}>{t(`start.action.${r.action}`)}</Tag>
          {r.on_task_id && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('start.offOf', { id: r.on_task_id })}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { key: 'status', title: t('start.columns.status'), width: 100, render: (_, r) => <TaskStatusTag status={r.status} /> },
    {
      key: 'when',
      title: t('start.columns.when'),
      width: 180,
      render: (_, r) =>
        r.start_at ? (
          <Flex vertical>
            <span>{formatDateTime(r.start_at)}</span>
            {r.zone && r.local && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {`${r.local.replace('T', ' ')} ${r.zone}`}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          t('start.whenNow')
        ),
    },
    {
      key: 'targets',
      title: t('start.columns.targets'),
      width: 200,
      render: (_, r) => (
        <Flex vertical>
          {r.campaigns > 0 && <span>{t('start.targetsText', { campaigns: r.campaigns })}</span>}
          {r.schemes.map((s) => (
            <span key={s.id}>{s.name}</span>
          ))}
        </Flex>
      ),
    },
    {
      key: 'results',
      title: t('start.columns.results'),
      width: 140,
      render: (_, r) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setOpen(r)}>
          {t('start.resultsText', { ok: r.ok, failed: r.failed })}
        </Button>
      ),
    },
    { key: 'message', title: t('start.columns.message'), width: 200, render: (_, r) => r.error ?? r.message ?? '-' },
    { key: 'created_by', title: t('start.columns.createdBy'), width: 140, render: (_, r) => <Flex vertical><span>{r.created_by?.name ?? '-'}</span><Typography.Text type="secondary" style={{ fontSize: 12 }}>{formatDateTime(r.queued_at)}</Typography.Text></Flex> },
    {
      key: 'actions',
      title: t('start.columns.actions'),
      width: 90,
      fixed: 'right',
      render: (_, r) =>
        r.status === 'queued' ? (
          <Button size="small" type="link" danger onClick={() => cancel(r)} aria-label={`${t('start.cancel')} #${r.id}`}>
            {t('start.cancel')}
          </Button>
        ) : null,
    },
  ];
  return (
    <Flex vertical gap={16}>
      <FilterBar value={list.filters} onChange={list.setFilters} onReset={list.reset} applyOnChange={['status', 'action']} label={t('start.filters')}>
        <Form.Item name="status" label={t('start.columns.status')}>
          <Select allowClear placeholder={t('all')} style={{ width: 140 }} options={taskStatusSchema.options.map((s) => ({ value: s, label: tAssets(`taskStatus.${s}`) }))} />
        </Form.Item>
        <Form.Item name="action" label={t('start.columns.action')}>
          <Select allowClear placeholder={t('all')} style={{ width: 120 }} options={(['activate', 'pause'] as const).map((a) => ({ value: a, label: t(`start.action.${a}`) }))} />
        </Form.Item>
      </FilterBar>
      <ListTable<StartTask, NonNullable<typeof tasks.data>> list={list} result={tasks} columns={columns} rowKey="id" empty={{ text: t('start.emptyTasks') }} />
      <ResultsDrawer task={open} onClose={() => setOpen(null)} />
    </Flex>
  );
}

interface FormValues {
  when: 'now' | 'at';
  local?: dayjs.Dayjs;
  zone: string;
  offOn: boolean;
  offLocal?: dayjs.Dayjs;
}

function CreateStart({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('launch');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [target, setTarget] = useState<'campaigns' | 'schemes'>('campaigns');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<{ campaigns: Key[]; schemes: Key[] }>({ campaigns: [], schemes: [] });
  const when = Form.useWatch('when', form);
  const offOn = Form.useWatch('offOn', form);
  const campaignBody = { page, page_size: 10, ...(keyword && { keyword }) };
  const campaigns = useQuery({ queryKey: [...keys.all, 'campaigns', campaignBody], queryFn: () => api.call(endpoints.startTasks.campaigns, campaignBody), enabled: target === 'campaigns', placeholderData: keepPreviousData });
  const schemes = useQuery({ queryKey: [...keys.all, 'schemes', campaignBody], queryFn: () => api.call(endpoints.startTasks.schemes, campaignBody), enabled: target === 'schemes', placeholderData: keepPreviousData });
  const create = useMutation({ mutationFn: (body: Parameters<typeof api.call<typeof endpoints.startTasks.create>>[1]) => api.call(endpoints.startTasks.create, body) });
  const count = picked.campaigns.length + picked.schemes.length;

  const submit = (v: FormValues) => {
    if (!count) {
      void message.warning(t('start.pickFirst'));
      return;
    }
    const on = v.when === 'now' ? ({ mode: 'now' } as const) : ({ mode: 'at', local: v.local!.format(LOCAL_FORMAT), zone: v.zone } as const);
    const body = { campaign_ids: picked.campaigns.map(Number), scheme_ids: picked.schemes.map(Number), on, off: v.offOn && v.offLocal ? { local: v.offLocal.format(LOCAL_FORMAT), zone: v.zone } : null };
    confirmAction(modal, {
      title: t('start.confirmTitle', { count }),
      content: v.when === 'now' ? t('start.confirmNow') : t('start.confirmAt', { time: v.local!.format('YYYY-MM-DD HH:mm'), zone: v.zone === 'market' ? t('start.market') : v.zone }),
      action: async () => {
        const res = await create.mutateAsync(body);
        message.success(t('start.queued', { count: res.task_ids.length }));
        setPicked({ campaigns: [], schemes: [] });
        await queryClient.invalidateQueries({ queryKey: keys.all });
        onDone();
      },
    });
  };

  const search = (
    <Input.Search
      allowClear
      placeholder={t('start.campaigns.keyword')}
      style={{ width: 260 }}
      onSearch={(k) => {
        setKeyword(k.trim());
        setPage(1);
      }}
      aria-label={t('start.campaigns.keyword')}
    />
  );
  return (
    <Flex vertical gap={16}>
      <Flex gap={16} align="center" wrap>
        <Radio.Group
          value={target}
          onChange={(e) => {
            setTarget(e.target.value as 'campaigns');
            setPage(1);
          }}
          optionType="button"
          options={(['campaigns', 'schemes'] as const).map((k) => ({ value: k, label: t(`start.target.${k}`) }))}
        />
        {search}
        <Typography.Text type="secondary">{t('start.selected', { count })}</Typography.Text>
      </Flex>
      {target === 'campaigns' ? (
        <Table<StartCampaign>
          size="small"
          rowKey="id"
          loading={campaigns.isPending}
          dataSource={campaigns.data?.list ?? []}
          locale={{ emptyText: t('start.campaigns.empty') }}
          pagination={{ current: page, pageSize: 10, total: campaigns.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          rowSelection={{ selectedRowKeys: picked.campaigns, preserveSelectedRowKeys: true, onChange: (k) => setPicked((p) => ({ ...p, campaigns: k })), getCheckboxProps: (r) => ({ 'aria-label': r.name }) }}
          columns={[
            { key: 'name', title: t('start.campaigns.name'), render: (_, r) => r.name },
            { key: 'account', title: t('start.campaigns.account'), render: (_, r) => r.ad_account.name },
            { key: 'tz', title: t('start.campaigns.timezone'), render: (_, r) => r.ad_account.timezone_name },
            { key: 'status', title: t('start.campaigns.status'), render: (_, r) => <Tag color={r.status === 'ACTIVE' ? 'green' : 'default'}>{t(`campaignStatus.${r.status}`, { defaultValue: r.status })}</Tag> },
            { key: 'scheme', title: t('start.campaigns.scheme'), render: (_, r) => r.scheme?.name ?? '-' },
          ]}
        />
      ) : (
        <Table<StartScheme>
          size="small"
          rowKey="id"
          loading={schemes.isPending}
          dataSource={schemes.data?.list ?? []}
          locale={{ emptyText: t('start.schemes.empty') }}
          pagination={{ current: page, pageSize: 10, total: schemes.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          rowSelection={{ selectedRowKeys: picked.schemes, preserveSelectedRowKeys: true, onChange: (k) => setPicked((p) => ({ ...p, schemes: k })), getCheckboxProps: (r) => ({ 'aria-label': r.name }) }}
          columns={[
            { key: 'name', title: t('start.schemes.name'), render: (_, r) => r.name },
            { key: 'status', title: t('start.schemes.status'), render: (_, r) => t(`schemeStatus.${r.status}`, { defaultValue: r.status }) },
            { key: 'campaigns', title: t('start.schemes.campaigns'), render: (_, r) => r.campaigns },
            { key: 'by', title: t('start.schemes.createdBy'), render: (_, r) => r.created_by.name },
          ]}
        />
      )}
      <Form<FormValues> form={form} layout="vertical" initialValues={{ when: 'now', zone: 'market', offOn: false }} onFinish={submit} style={{ maxWidth: 560 }}>
        <Form.Item name="when" label={t('start.when')}>
          <Radio.Group options={[{ value: 'now', label: t('start.now') }, { value: 'at', label: t('start.at') }]} />
        </Form.Item>
        {when === 'at' && (
          <Form.Item name="local" label={t('start.local')} rules={[{ required: true, message: t('start.localRequired') }]}>
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 220 }} aria-label={t('start.local')} />
          </Form.Item>
        )}
        {(when === 'at' || offOn) && (
          <Form.Item name="zone" label={t('start.zone')}>
            <Select style={{ width: 360 }} options={[{ value: 'market', label: t('start.market') }, ...ZONES.map((z) => ({ value: z, label: z }))]} aria-label={t('start.zone')} />
          </Form.Item>
        )}
        <Form.Item name="offOn" valuePropName="checked">
          <Checkbox>{t('start.off')}</Checkbox>
        </Form.Item>
        {offOn && (
          <Form.Item name="offLocal" label={t('start.offAt')} rules={[{ required: true, message: t('start.localRequired') }]}>
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 220 }} aria-label={t('start.offAt')} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" loading={create.isPending} disabled={!count}>
          {t('start.submit')}
        </Button>
      </Form>
    </Flex>
  );
}

const useStartQuery = () => useListQuery(querySchema, { filterKeys: ['status', 'action'] });

/** /advertising/start 启动管理. */
export default function StartPage() {
  const { t } = useTranslation('launch');
  const title = useRouteTitle('/advertising/start');
  const list = useStartQuery();
  const tab = list.query.tab;
  return (
    <PageShell title={title}>
      <Tabs
        activeKey={tab}
        onChange={(k) => list.patch({ tab: k as 'tasks' })}
        items={[
          { key: 'tasks', label: t('start.tabs.tasks'), children: tab === 'tasks' ? <TaskList list={list} /> : null },
          { key: 'create', label: t('start.tabs.create'), children: tab === 'create' ? <CreateStart onDone={() => list.patch({ tab: 'tasks', page: 1 })} /> : null },
        ]}
      />
    </PageShell>
  );
}
