import type { CronJob } from '@ads/contracts';
import { Flex, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TaskStatusTag } from '@/components/task-status-tag';
import { formatDateTime, formatRelative, msSince } from '@/lib/format';
import { isRunActive } from '../api/use-cron-jobs';
import { useFormatDuration } from './use-explain-cron';

/** The job's last run: status, how long it took (or has been running), when, and what it said. */
export function LastRunCell({ job }: { job: CronJob }) {
  const { t } = useTranslation('cron');
  const duration = useFormatDuration();
  const run = job.last_run;
  if (!run) return <Typography.Text type="secondary">{t('jobs.neverRun')}</Typography.Text>;
  const at = run.finished_at ?? run.started_at;
  const elapsed = run.status === 'running' ? msSince(run.started_at) : null;
  return (
    <Flex vertical gap={2} align="flex-start" style={{ minWidth: 0, maxWidth: '100%' }}>
      <Flex gap={6} align="center" wrap>
        <TaskStatusTag status={run.status} />
        {run.duration_ms !== null && <Typography.Text style={{ fontVariantNumeric: 'tabular-nums' }}>{duration(run.duration_ms)}</Typography.Text>}
        {elapsed !== null && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('runs.running', { duration: duration(Math.max(0, elapsed)) })}
          </Typography.Text>
        )}
      </Flex>
      {at && !isRunActive(run.status) && (
        <Tooltip title={formatDateTime(at)}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatRelative(at)}
          </Typography.Text>
        </Tooltip>
      )}
      {run.message && (
        <Typography.Text type={run.status === 'failed' ? 'danger' : 'secondary'} style={{ fontSize: 12, maxWidth: '100%' }} ellipsis={{ tooltip: run.message }}>
          {run.message}
        </Typography.Text>
      )}
    </Flex>
  );
}
