import { ReloadOutlined } from '@ant-design/icons';
import type { CronJob } from '@ads/contracts';
import { Alert, Badge, Button, Card, Flex, Tabs } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useColumnPrefs, useListQuery } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import '@/locales/cron-namespace';
import { isRunActive, useCronJobs } from '../api/use-cron-jobs';
import { cronQuerySchema, runsBody, useJobRuns } from '../api/use-job-runs';
import { CronJobTable } from '../components/cron-job-table';
import { RunFilters } from '../components/run-filters';
import { DEFAULT_HIDDEN_RUN_COLUMNS, RunTable } from '../components/run-table';
import { RunWatcher } from '../components/run-watcher';
import { ScheduleModal } from '../components/schedule-modal';
import { useCronActions } from '../components/use-cron-actions';

/** The viewer's time zone as people read it: "Asia/Shanghai, UTC+08:00". */
const localZone = () => {
  const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${name ? `${name}, ` : ''}UTC${dayjs().format('Z')}`;
};

/** /admin/sys/cron 定时任务: the scheduled jobs (schedule, on/off, run now) and their run history. */
export default function CronPage() {
  const { t } = useTranslation('cron');
  const title = useRouteTitle('/admin/sys/cron');
  const list = useListQuery(cronQuerySchema, { filterKeys: ['name', 'status'] });
  const { query } = list;
  const runColumns = useColumnPrefs('/admin/sys/cron/runs', DEFAULT_HIDDEN_RUN_COLUMNS);
  const jobs = useCronJobs();
  const body = useMemo(() => runsBody(query), [query]);
  const runs = useJobRuns(body, { enabled: query.tab === 'runs' });
  const [editTarget, setEditTarget] = useState<CronJob | null>(null);
  const [watching, setWatching] = useState<{ id: number; title: string }[]>([]);
  const stopWatching = useCallback((id: number) => setWatching((w) => w.filter((x) => x.id !== id)), []);
  const actions = useCronActions({ onQueued: (run) => setWatching((w) => [...w, run]) });

  const live = watching.length > 0 || Boolean(jobs.data?.list.some((j) => isRunActive(j.last_run?.status))) || Boolean(runs.data?.list.some((r) => isRunActive(r.status)));
  const showRuns = (name?: string) => list.set({ tab: 'runs', page: 1, page_size: query.page_size, ...(name && { name }) });
  const handleRefresh = () => {
    void jobs.refetch();
    if (query.tab === 'runs') void runs.refetch();
  };

  return (
    <PageShell
      title={title}
      extra={
        <>
          {live && <Badge status="processing" text={t('status.live')} />}
          <Button icon={<ReloadOutlined />} loading={jobs.isFetching && !jobs.isPending} onClick={handleRefresh}>
            {t('status.refresh')}
          </Button>
        </>
      }
    >
      <Alert type="info" showIcon title={t('utcNote', { zone: localZone() })} />
      <Tabs
        activeKey={query.tab}
        onChange={(tab) => list.patch({ tab: tab === 'runs' ? 'runs' : 'jobs' })}
        tabBarStyle={{ marginBottom: 12 }}
        items={[
          {
            key: 'jobs',
            label: t('tabs.jobs'),
            children: (
              <Card size="small" styles={{ body: { padding: 0 } }}>
                <CronJobTable
                  result={jobs}
                  empty={{ text: t('jobs.empty') }}
                  busy={actions.busy}
                  onToggle={actions.confirmToggle}
                  onRunNow={actions.confirmRunNow}
                  onEdit={setEditTarget}
                  onReset={actions.confirmReset}
                  onHistory={(job) => showRuns(job.name)}
                />
              </Card>
            ),
          },
          {
            key: 'runs',
            label: t('tabs.runs'),
            children: (
              <Flex vertical gap={12}>
                <Card size="small">
                  <RunFilters value={list.filters} jobs={jobs.data?.list ?? []} onChange={list.setFilters} onReset={list.reset} />
                </Card>
                <Card size="small" styles={{ body: { padding: 0 } }}>
                  <RunTable
                    list={list}
                    result={runs}
                    chooser={runColumns}
                    empty={{ text: t('runs.empty') }}
                    cancelling={actions.cancelling}
                    onCancel={actions.confirmCancel}
                  />
                </Card>
              </Flex>
            ),
          },
        ]}
      />
      <ScheduleModal job={editTarget} onClose={() => setEditTarget(null)} />
      {watching.map((w) => (
        <RunWatcher key={w.id} id={w.id} title={w.title} onDone={stopWatching} />
      ))}
    </PageShell>
  );
}
