import { ReloadOutlined } from '@ant-design/icons';
import type { Task } from '@ads/contracts';
import { Button, Drawer, Empty, Flex, Progress, Result, Segmented, Spin, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative } from '@/lib/format';
import { isTaskFinished, useCancelTask, useTasks } from '@/lib/lookups/use-tasks';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import '@/locales/assets-namespace';
import { taskPercent, TaskSummary } from './task-progress';
import { TaskStatusTag } from './task-status-tag';

const RECENT = 30;

interface Props {
  open: boolean;
  onClose: () => void;
  /** Only tasks of this job (e.g. the personal-account sync). */
  jobName?: string;
}

/** 任务记录: recent background tasks with their progress and result, refreshed while any runs. */
export function TasksDrawer({ open, onClose, jobName }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const [mine, setMine] = useState(false);
  const focusReturn = useDrawerFocusReturn(open);
  const tasks = useTasks(
    { page: 1, page_size: RECENT, sort_field: 'queued_at', sort_order: 'descend', ...(jobName && { job_name: jobName }), ...(mine && { mine: true }) },
    { enabled: open },
  );
  const cancel = useCancelTask();

  return (
    <Drawer open={open} onClose={onClose} title={t('tasks.title')} size={520} destroyOnHidden {...focusReturn}>
      <Flex vertical gap={12}>
        <Flex justify="space-between" align="center">
          <Segmented<'all' | 'mine'>
            value={mine ? 'mine' : 'all'}
            onChange={(v) => setMine(v === 'mine')}
            options={[
              { value: 'all', label: t('tasks.all') },
              { value: 'mine', label: t('tasks.mine') },
            ]}
          />
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void tasks.refetch()} loading={tasks.isFetching}>
            {tc('actions.refresh')}
          </Button>
        </Flex>
        {tasks.isError && !tasks.data ? (
          <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void tasks.refetch()}>{tc('states.retry')}</Button>} />
        ) : (
          <Spin spinning={tasks.isPending}>
            {(tasks.data?.list.length ?? 0) === 0 && !tasks.isPending ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tasks.empty')} />
            ) : (
              <Flex vertical gap={8} style={{ minHeight: 80 }}>
                {(tasks.data?.list ?? []).map((task) => (
                  <TaskRow key={task.id} task={task} cancelling={cancel.isPending && cancel.variables === task.id} onCancel={() => cancel.mutate(task.id)} />
                ))}
              </Flex>
            )}
          </Spin>
        )}
      </Flex>
    </Drawer>
  );
}

function TaskRow({ task, cancelling, onCancel }: { task: Task; cancelling: boolean; onCancel: () => void }) {
  const { t } = useTranslation('assets');
  const { token } = theme.useToken();
  const finished = isTaskFinished(task);
  return (
    <Flex
      vertical
      gap={4}
      data-testid="task-row"
      style={{ padding: '10px 12px', border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }}
    >
      <Flex gap={8} align="center" justify="space-between">
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong>{task.title}</Typography.Text>
          <TaskStatusTag status={task.status} />
        </Flex>
        {!finished && (
          <Button size="small" type="link" danger loading={cancelling} onClick={onCancel}>
            {t('tasks.cancel')}
          </Button>
        )}
      </Flex>
      {!finished && <Progress percent={taskPercent(task) ?? 0} size="small" status="active" showInfo={task.progress_total > 0} />}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {[
          t(task.trigger === 'schedule' ? 'tasks.bySchedule' : 'tasks.byUser', { name: task.created_by_name ?? '-' }),
          t('tasks.queuedAt', { time: formatDateTime(task.queued_at), relative: formatRelative(task.queued_at) }),
          task.status === 'queued' && task.start_at ? t('tasks.startsAt', { time: formatDateTime(task.start_at), relative: formatRelative(task.start_at) }) : null,
          task.finished_at ? t('tasks.finishedAt', { time: formatDateTime(task.finished_at) }) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Typography.Text>
      {task.message && <Typography.Text style={{ fontSize: 13 }}>{task.message}</Typography.Text>}
      {task.error && (
        <Typography.Text type="danger" style={{ fontSize: 13 }}>
          {task.error}
        </Typography.Text>
      )}
      {finished && !task.message && <TaskSummary summary={task.summary} />}
    </Flex>
  );
}
