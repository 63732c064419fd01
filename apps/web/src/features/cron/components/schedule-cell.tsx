import type { CronJob } from '@ads/contracts';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { useExplainCron } from './use-explain-cron';

/** A cron expression with its plain reading (and local times) below it. */
export function CronText({ expr }: { expr: string }) {
  const explain = useExplainCron();
  const e = explain(expr);
  return (
    <Flex vertical gap={2}>
      <Typography.Text code style={{ whiteSpace: 'nowrap', alignSelf: 'flex-start' }}>
        {expr}
      </Typography.Text>
      {e && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {e.text}
          {e.local && <span style={{ display: 'block' }}>{e.local}</span>}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The schedule in force, marked when it differs from the job's default (which the tooltip gives). */
export function ScheduleCell({ job }: { job: CronJob }) {
  const { t } = useTranslation('cron');
  const explain = useExplainCron();
  const defaultText = job.default_schedule
    ? t('jobs.overriddenHelp', { schedule: [job.default_schedule, explain(job.default_schedule)?.text].filter(Boolean).join(' · ') })
    : t('jobs.defaultOnDemand');
  const changedBy = job.updated_by_name && job.updated_at ? t('jobs.updatedBy', { name: job.updated_by_name, time: formatDateTime(job.updated_at) }) : null;
  return (
    <Flex vertical gap={4} align="flex-start">
      {job.schedule ? <CronText expr={job.schedule} /> : <Typography.Text type="secondary">{t('jobs.onDemand')}</Typography.Text>}
      {job.overridden && (
        <Tooltip
          title={
            <>
              <div>{defaultText}</div>
              {changedBy && <div>{changedBy}</div>}
            </>
          }
        >
          <Tag color="orange" style={{ marginInlineEnd: 0, cursor: 'help' }}>
            {t('jobs.overridden')}
          </Tag>
        </Tooltip>
      )}
    </Flex>
  );
}
