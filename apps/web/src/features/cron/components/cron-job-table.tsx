import type { CronJob } from '@ads/contracts';
import { Button, Flex, Switch, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative } from '@/lib/format';
import { isRunActive } from '../api/use-cron-jobs';
import { LastRunCell } from './last-run-cell';
import { ScheduleCell } from './schedule-cell';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult } from '@/components/list-kit';

interface Props {
  result: ListResult<{ list: CronJob[]; total: number }>;
  empty: EmptyConfig;
  /** Jobs with a switch or a run-now call in flight. */
  busy: { toggling?: string; running?: string };
  onToggle: (job: CronJob) => void;
  onRunNow: (job: CronJob) => void;
  onEdit: (job: CronJob) => void;
  onReset: (job: CronJob) => void;
  onHistory: (job: CronJob) => void;
}

/** Every registered job: what it does, when it runs, whether it runs on its own, how its last run went. */
export function CronJobTable({ result, empty, busy, onToggle, onRunNow, onEdit, onReset, onHistory }: Props) {
  const { t } = useTranslation('cron');
  const { t: tc } = useTranslation();

  const columns: ListColumn<CronJob>[] = [
    {
      key: 'job',
      title: t('jobs.columns.job'),
      width: 250,
      render: (_, job) => (
        <Flex vertical gap={2}>
          <Typography.Text strong>{job.title}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {job.name}
          </Typography.Text>
          {job.description && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: 0 }} ellipsis={{ rows: 2, tooltip: job.description }}>
              {job.description}
            </Typography.Paragraph>
          )}
        </Flex>
      ),
    },
    { key: 'schedule', title: t('jobs.columns.schedule'), width: 230, render: (_, job) => <ScheduleCell job={job} /> },
    {
      key: 'enabled',
      title: t('jobs.columns.enabled'),
      width: 100,
      render: (_, job) => (
        <Switch
          checked={job.enabled}
          loading={busy.toggling === job.name}
          aria-label={t('jobs.enabledLabel', { title: job.title })}
          onChange={() => onToggle(job)}
        />
      ),
    },
    {
      key: 'next_run',
      title: t('jobs.columns.nextRun'),
      width: 160,
      render: (_, job) =>
        job.next_run_at ? (
          <Flex vertical gap={2}>
            <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatDateTime(job.next_run_at)}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatRelative(job.next_run_at)}
            </Typography.Text>
          </Flex>
        ) : (
          <Typography.Text type="secondary">{job.enabled ? t('jobs.notScheduled') : t('jobs.disabledNext')}</Typography.Text>
        ),
    },
    { key: 'last_run', title: t('jobs.columns.lastRun'), width: 220, render: (_, job) => <LastRunCell job={job} /> },
    {
      key: 'actions',
      title: tc('table.actions'),
      fixed: 'right',
      width: 180,
      render: (_, job) => (
        <Flex gap={0} wrap style={{ marginInline: -7 }}>
          <Tooltip title={isRunActive(job.last_run?.status) ? t('jobs.confirmRun.running') : undefined}>
            <Button type="link" size="small" loading={busy.running === job.name} onClick={() => onRunNow(job)}>
              {t('jobs.runNow')}
            </Button>
          </Tooltip>
          <Button type="link" size="small" onClick={() => onEdit(job)}>
            {t('jobs.editSchedule')}
          </Button>
          <Button type="link" size="small" onClick={() => onHistory(job)}>
            {t('jobs.history')}
          </Button>
          {job.overridden && (
            <Button type="link" size="small" onClick={() => onReset(job)}>
              {t('jobs.resetSchedule')}
            </Button>
          )}
        </Flex>
      ),
    },
  ];

  // Every job at once: the list is short and needs no paging or sort.
  return <ListTable<CronJob, { list: CronJob[]; total: number }> result={result} rowKey="name" columns={columns} empty={empty} />;
}
