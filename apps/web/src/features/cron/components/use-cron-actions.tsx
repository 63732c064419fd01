import type { CronJob, JobRun } from '@ads/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '@/lib/confirm';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useCancelTask } from '@/lib/lookups/use-tasks';
import { cronKeys, isRunActive } from '../api/use-cron-jobs';
import { useRunCronJob } from '../api/use-run-cron-job';
import { useUpdateCronJob } from '../api/use-update-cron-job';
import { nextRuns } from './cron-expression';
import { useExplainCron } from './use-explain-cron';

/** The confirmed actions of the cron screen: switch on/off, back to the default schedule, run now, cancel a run. */
export function useCronActions({ onQueued }: { onQueued: (run: { id: number; title: string }) => void }) {
  const { t } = useTranslation('cron');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const update = useUpdateCronJob();
  const run = useRunCronJob();
  const cancel = useCancelTask();
  const explain = useExplainCron();
  const explainText = (expr: string) => explain(expr)?.text ?? expr;

  const confirmToggle = (job: CronJob) => {
    if (job.enabled) {
      return confirmAction(modal, {
        title: t('jobs.confirmDisable.title', { title: job.title }),
        content: t('jobs.confirmDisable.body'),
        okText: t('jobs.confirmDisable.ok'),
        danger: true,
        action: async () => {
          await update.mutateAsync({ name: job.name, enabled: false });
          message.success(t('jobs.disabled', { title: job.title }));
        },
      });
    }
    const next = job.schedule ? nextRuns(job.schedule, new Date(), 1)[0] : undefined;
    return confirmAction(modal, {
      title: t('jobs.confirmEnable.title', { title: job.title }),
      content: job.schedule ? (
        <Flex vertical gap={4}>
          <span>{t('jobs.confirmEnable.body', { schedule: job.schedule, explain: explainText(job.schedule) })}</span>
          {next && <Typography.Text type="secondary">{t('jobs.confirmEnable.bodyNext', { time: `${formatDateTime(next.toISOString())}（${formatRelative(next.toISOString())}）` })}</Typography.Text>}
        </Flex>
      ) : (
        t('jobs.confirmEnable.bodyOnDemand')
      ),
      okText: t('jobs.confirmEnable.ok'),
      action: async () => {
        await update.mutateAsync({ name: job.name, enabled: true });
        message.success(t('jobs.enabled', { title: job.title }));
      },
    });
  };

  const confirmReset = (job: CronJob) =>
    confirmAction(modal, {
      title: t('jobs.confirmReset.title', { title: job.title }),
      content: job.default_schedule
        ? t('jobs.confirmReset.body', { current: job.schedule ?? '-', schedule: job.default_schedule, explain: explainText(job.default_schedule) })
        : t('jobs.defaultOnDemand'),
      okText: t('jobs.confirmReset.ok'),
      action: async () => {
        await update.mutateAsync({ name: job.name, schedule: null });
        message.success(t('jobs.reset', { title: job.title }));
      },
    });

  const confirmRunNow = (job: CronJob) =>
    confirmAction(modal, {
      title: t('jobs.confirmRun.title', { title: job.title }),
      content: (
        <Flex vertical gap={4}>
          <span>{t('jobs.confirmRun.body')}</span>
          {isRunActive(job.last_run?.status) && <Typography.Text type="warning">{t('jobs.confirmRun.running')}</Typography.Text>}
        </Flex>
      ),
      okText: t('jobs.confirmRun.ok'),
      action: async () => {
        const { task_id } = await run.mutateAsync(job.name);
        message.success(t('jobs.queued', { title: job.title, id: task_id }));
        onQueued({ id: task_id, title: job.title });
      },
    });

  const confirmCancel = (r: JobRun) =>
    confirmAction(modal, {
      title: t('runs.cancelTitle', { id: r.id }),
      content: t('runs.cancelBody'),
      okText: t('runs.cancelOk'),
      danger: true,
      action: async () => {
        await cancel.mutateAsync(r.id);
        message.success(t('runs.cancelled', { id: r.id }));
        await queryClient.invalidateQueries({ queryKey: cronKeys.all });
      },
    });

  return {
    confirmToggle,
    confirmReset,
    confirmRunNow,
    confirmCancel,
    busy: {
      toggling: update.isPending && update.variables?.enabled !== undefined ? update.variables.name : undefined,
      running: run.isPending ? run.variables : undefined,
    },
    cancelling: cancel.isPending ? cancel.variables : undefined,
  };
}
