import type { JobRun } from '@ads/contracts';
import { Button, Descriptions, Flex, Progress, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { taskPercent } from '@/components/task-progress';
import { RunSummary } from './run-summary';
import { TaskStatusTag } from '@/components/task-status-tag';
import { formatDateTime, formatRelative, msSince } from '@/lib/format';
import { ListTable, type ColumnPrefsState, type EmptyConfig, type ListColumn, type ListResult, type ListView } from '@/components/list-kit';
import { isRunActive } from '../api/use-cron-jobs';
import type { JobRunsPage } from '../api/use-job-runs';
import { useFormatDuration } from './use-explain-cron';

interface Props {
  list: ListView;
  result: ListResult<JobRunsPage>;
  /** The column chooser's state (queued and finished times are in it, hidden by default). */
  chooser: ColumnPrefsState;
  empty: EmptyConfig;
  cancelling: number | undefined;
  onCancel: (run: JobRun) => void;
}

/** The expand-arrow column. */
const EXPAND_WIDTH = 40;
/** In the column chooser, not shown by default: the rest fit a 1440 px screen. */
export const DEFAULT_HIDDEN_RUN_COLUMNS: readonly string[] = ['queued_at', 'finished_at'];

const hasDetails = (r: JobRun) => Boolean(r.error || r.message || (r.summary && Object.keys(r.summary).length) || (r.data && Object.keys(r.data).length));

/** The run history: server paging and sort, live while a run on the page is queued or running; a row opens to its full result. */
export function RunTable({ list, result, chooser, empty, cancelling, onCancel }: Props) {
  const { t } = useTranslation('cron');
  const { t: tc } = useTranslation();
  const duration = useFormatDuration();
  const dash = <Typography.Text type="secondary">{tc('dash')}</Typography.Text>;
  const time = (v: string | null) =>
    v ? (
      <Tooltip title={formatRelative(v)}>
        <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatDateTime(v)}</span>
      </Tooltip>
    ) : (
      dash
    );

  const columns: ListColumn<JobRun>[] = [
    {
      key: 'id',
      title: t('runs.columns.id'),
      dataIndex: 'id',
      sortable: true,
      width: 80,
      locked: true,
      render: (id: number) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>#{id}</span>,
    },
    {
      key: 'job',
      title: t('runs.columns.job'),
      width: 200,
      render: (_, r) => (
        <Flex vertical gap={2}>
          <Typography.Text>{r.title}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.job_name}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'status',
      title: t('runs.columns.status'),
      width: 120,
      render: (_, r) => (
        <Flex vertical gap={4} align="flex-start">
          <Flex gap={4} wrap>
            <TaskStatusTag status={r.status} />
            {r.attempt > 1 && <Tag style={{ marginInlineEnd: 0 }}>{t('runs.attempt', { n: r.attempt })}</Tag>}
          </Flex>
          {r.status === 'running' && r.progress_total > 0 && <Progress percent={taskPercent(r) ?? 0} size="small" status="active" style={{ width: 120, margin: 0 }} />}
        </Flex>
      ),
    },
    {
      key: 'duration',
      title: t('runs.columns.duration'),
      width: 100,
      align: 'right',
      render: (_, r) => {
        if (r.duration_ms !== null) return <span style={{ fontVariantNumeric: 'tabular-nums' }}>{duration(r.duration_ms)}</span>;
        if (r.status === 'running' && r.started_at) {
          return (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('runs.running', { duration: duration(Math.max(0, msSince(r.started_at) ?? 0)) })}
            </Typography.Text>
          );
        }
        return r.status === 'queued' ? <Typography.Text type="secondary">{t('runs.waiting')}</Typography.Text> : dash;
      },
    },
    {
      key: 'result',
      title: t('runs.columns.result'),
      width: 225,
      render: (_, r) => {
        const text = r.error ?? r.message;
        if (text) {
          return (
            <Typography.Text type={r.error ? 'danger' : undefined} ellipsis={{ tooltip: text }} style={{ maxWidth: 220 }}>
              {text}
            </Typography.Text>
          );
        }
        return r.summary && Object.keys(r.summary).length ? <RunSummary jobName={r.job_name} summary={r.summary} /> : dash;
      },
    },
    {
      key: 'trigger',
      title: t('runs.columns.trigger'),
      width: 130,
      render: (_, r) =>
        r.trigger === 'schedule' ? (
          <Tag style={{ marginInlineEnd: 0 }}>{t('runs.bySchedule')}</Tag>
        ) : (
          <Tooltip title={r.created_by_name ? t('runs.byUser', { name: r.created_by_name }) : undefined}>
            <Flex gap={4} align="center" wrap={false}>
              <Tag color="blue" style={{ marginInlineEnd: 0 }}>
                {t('runs.manual')}
              </Tag>
              {r.created_by_name && (
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 70 }}>
                  {r.created_by_name}
                </Typography.Text>
              )}
            </Flex>
          </Tooltip>
        ),
    },
    { key: 'queued_at', title: t('runs.columns.queuedAt'), dataIndex: 'queued_at', sortable: true, width: 150, render: time },
    { key: 'started_at', title: t('runs.columns.startedAt'), dataIndex: 'started_at', sortable: true, width: 150, render: time },
    { key: 'finished_at', title: t('runs.columns.finishedAt'), dataIndex: 'finished_at', sortable: true, width: 150, render: time },
    {
      key: 'actions',
      title: tc('table.actions'),
      fixed: 'right',
      width: 90,
      render: (_, r) =>
        isRunActive(r.status) ? (
          <Button type="link" size="small" danger loading={cancelling === r.id} onClick={() => onCancel(r)} aria-label={`${t('runs.cancel')} #${r.id}`}>
            {t('runs.cancel')}
          </Button>
        ) : null,
    },
  ];

  return (
    <ListTable<JobRun, JobRunsPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      chooser={chooser}
      empty={empty}
      expandable={{ expandedRowRender: (r) => <RunDetails run={r} />, rowExpandable: hasDetails, columnWidth: EXPAND_WIDTH }}
    />
  );
}

/** Everything a run recorded: message, full error, summary figures, its input, progress and times. */
function RunDetails({ run }: { run: JobRun }) {
  const { t } = useTranslation('cron');
  type Item = { key: string; label: string; children: ReactNode };
  const items = ([
    run.message && { key: 'message', label: t('runs.details.message'), children: run.message },
    run.error && {
      key: 'error',
      label: t('runs.details.error'),
      children: (
        <Typography.Text type="danger" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} copyable>
          {run.error}
        </Typography.Text>
      ),
    },
    run.summary && Object.keys(run.summary).length > 0 && { key: 'summary', label: t('runs.details.summary'), children: <RunSummary jobName={run.job_name} summary={run.summary} /> },
    run.progress_total > 0 && { key: 'progress', label: t('runs.details.progress'), children: `${run.progress_done} / ${run.progress_total}` },
    run.data && Object.keys(run.data).length > 0 && {
      key: 'data',
      label: t('runs.details.data'),
      children: <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{JSON.stringify(run.data)}</Typography.Text>,
    },
  ] as (Item | false | null | '')[]).filter((x): x is Item => Boolean(x));
  return <Descriptions size="small" column={1} items={items} data-testid={`run-details-${run.id}`} />;
}
