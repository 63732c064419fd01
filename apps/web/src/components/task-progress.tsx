import type { Task } from '@ads/contracts';
import { Alert, Button, Flex, Progress, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isTaskFinished, useTask } from '@/lib/lookups/use-tasks';
import '@/locales/assets-namespace';
import { TaskStatusTag } from './task-status-tag';

/** Percent done, or undefined while the total is not known yet. */
export const taskPercent = (task: Pick<Task, 'progress_done' | 'progress_total' | 'status'>) =>
  task.status === 'success' ? 100 : task.progress_total > 0 ? Math.min(100, Math.floor((task.progress_done / task.progress_total) * 100)) : undefined;

/** A task's summary numbers as "key: value" pairs people can read. */
export function TaskSummary({ summary }: { summary: Task['summary'] }) {
  const { t } = useTranslation('assets');
  if (!summary) return null;
  const entries = Object.entries(summary).filter(([, v]) => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean');
  if (!entries.length) return null;
  const known = ['accounts', 'synced', 'ad_accounts', 'new_ad_accounts', 'pages', 'pixels', 'created', 'updated'];
  const rank = (k: string) => (known.includes(k) ? known.indexOf(k) : known.length);
  entries.sort(([a], [b]) => rank(a) - rank(b));
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {entries
        .map(([k, v]) => `${known.includes(k) ? t(`tasks.summary.${k as 'ad_accounts'}`) : k}: ${String(v)}`)
        .join(' · ')}
    </Typography.Text>
  );
}

interface Props {
  taskId: number;
  /** Called once when the task has finished (to refresh what it changed). */
  onFinished?: (task: Task) => void;
  onClose: () => void;
}

/** Live progress of one background task, asked every second until it finishes, then its result. */
export function TaskProgress({ taskId, onFinished, onClose }: Props) {
  const { t } = useTranslation('assets');
  const task = useTask(taskId);
  const data = task.data;
  const finished = isTaskFinished(data);
  const reported = useRef(false);

  useEffect(() => {
    if (finished && data && !reported.current) {
      reported.current = true;
      onFinished?.(data);
    }
  }, [finished, data, onFinished]);

  const type = !data || !finished ? 'info' : data.status === 'success' ? 'success' : data.status === 'failed' ? 'error' : 'warning';
  const percent = data ? taskPercent(data) : undefined;
  return (
    <Alert
      type={type}
      showIcon
      data-testid={`task-${taskId}`}
      closable={finished ? { onClose, 'aria-label': t('tasks.dismiss') } : false}
      title={
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong>{data?.title ?? t('tasks.starting')}</Typography.Text>
          {data && <TaskStatusTag status={data.status} />}
          {data && data.progress_total > 0 && (
            <Typography.Text type="secondary">{t('tasks.progress', { done: data.progress_done, total: data.progress_total })}</Typography.Text>
          )}
        </Flex>
      }
      description={
        <Flex vertical gap={4}>
          {!finished && (
            <Progress
              percent={percent ?? 0}
              status="active"
              size="small"
              showInfo={percent !== undefined}
              aria-label={t('tasks.progressLabel')}
            />
          )}
          {data?.message && <Typography.Text>{data.message}</Typography.Text>}
          {data?.error && <Typography.Text type="danger">{data.error}</Typography.Text>}
          {finished && data && !data.message && <TaskSummary summary={data.summary} />}
          {task.isError && !data && (
            <Button size="small" onClick={() => void task.refetch()} style={{ alignSelf: 'flex-start' }}>
              {t('tasks.retryPoll')}
            </Button>
          )}
        </Flex>
      }
    />
  );
}
