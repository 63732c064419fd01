import { ApartmentOutlined, GlobalOutlined, SafetyOutlined, TeamOutlined } from '@ant-design/icons';
import type { CronJob } from '@ads/contracts';
import { Card, Col, Flex, Row, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageShell } from '@/components/page-shell';
import { TaskStatusTag } from '@/components/task-status-tag';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useAdminOverview } from '../api/use-admin-overview';
import { AssetFigures } from '../components/asset-figures';
import { DeliveryDashboard } from '../components/delivery-dashboard';
import { FigureCard } from '../components/figure-card';
import { OverviewError } from '../components/overview-error';

const CRON_PATH = '/admin/sys/cron';

/**
 * 首页 of the admin area (/admin/index): the company's delivery dashboard (organic orders apart),
 * what the system holds company-wide (people, organisation, authorization assets with token
 * health, materials) and every scheduled task with its last run. The super admin cannot open the
 * staff screens, so the counts are plain; the dashboard opens the /admin advertising screens.
 */
export default function AdminIndexPage() {
  const { t } = useTranslation('home');
  const { t: tc } = useTranslation();
  const overview = useAdminOverview();
  const data = overview.data;
  const loading = overview.isPending;
  const cols = { xs: 24, sm: 12, xl: 6 };
  const time = (iso: string | null) => (iso ? <Tooltip title={formatDateTime(iso)}>{formatRelative(iso)}</Tooltip> : null);

  const columns: TableColumnsType<CronJob> = [
    {
      key: 'job',
      title: t('admin.columns.job'),
      render: (_, j) => (
        <Flex vertical gap={2}>
          <Typography.Text>{j.title}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{j.description}</Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'enabled',
      title: t('admin.columns.enabled'),
      width: 140,
      render: (_, j) => (j.schedule === null ? <Typography.Text type="secondary">{t('admin.onDemand')}</Typography.Text> : <Tag color={j.enabled ? 'success' : undefined}>{j.enabled ? t('admin.on') : t('admin.off')}</Tag>),
    },
    {
      key: 'last',
      title: t('admin.columns.lastRun'),
      width: 260,
      render: (_, j) =>
        j.last_run ? (
          <Flex vertical gap={2} align="flex-start" style={{ minWidth: 0 }}>
            <Flex gap={6} align="center">
              <TaskStatusTag status={j.last_run.status} />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>{time(j.last_run.finished_at ?? j.last_run.started_at)}</Typography.Text>
            </Flex>
            {j.last_run.message && (
              <Typography.Text type={j.last_run.status === 'failed' ? 'danger' : 'secondary'} style={{ fontSize: 12, maxWidth: 240 }} ellipsis={{ tooltip: j.last_run.message }}>
                {j.last_run.message}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('admin.neverRun')}</Typography.Text>
        ),
    },
    {
      key: 'next',
      title: t('admin.columns.nextRun'),
      width: 150,
      render: (_, j) => time(j.next_run_at) ?? <Typography.Text type="secondary">{tc('dash')}</Typography.Text>,
    },
  ];

  const users = data?.users;
  return (
    <PageShell title={t('admin.title')} extra={<Typography.Text type="secondary">{t('admin.subtitle')}</Typography.Text>}>
      <DeliveryDashboard admin />
      {overview.isError && !data ? (
        <OverviewError onRetry={() => void overview.refetch()} />
      ) : (
        <>
          <Typography.Title level={5} style={{ margin: 0 }}>{t('admin.organisation')}</Typography.Title>
          <Row gutter={[16, 16]}>
            <Col {...cols}>
              <FigureCard
                title={t('figures.users')}
                icon={<TeamOutlined />}
                value={users?.total}
                loading={loading}
                figures={users ? [
                  { label: t('figures.enabled'), value: users.enabled },
                  { label: t('figures.disabled'), value: users.disabled },
                  { label: t('figures.managers'), value: users.managers },
                  { label: t('figures.leaders'), value: users.leaders },
                ] : []}
              />
            </Col>
            <Col {...cols}>
              <FigureCard title={t('figures.departments')} icon={<ApartmentOutlined />} value={data?.departments} loading={loading} />
            </Col>
            <Col {...cols}>
              <FigureCard title={t('figures.roles')} icon={<SafetyOutlined />} value={data?.roles} loading={loading} />
            </Col>
            <Col {...cols}>
              <FigureCard title={t('figures.sites')} icon={<GlobalOutlined />} value={data?.sites} loading={loading} />
            </Col>
          </Row>
          <Typography.Title level={5} style={{ margin: 0 }}>{t('admin.assets')}</Typography.Title>
          <AssetFigures data={data} loading={loading} />
          <Card size="small" title={t('admin.jobs')} extra={<Link to={CRON_PATH}>{t('admin.manageJobs')}</Link>}>
            <Table<CronJob> rowKey="name" size="small" columns={columns} dataSource={data?.jobs ?? []} loading={loading} pagination={false} />
          </Card>
        </>
      )}
    </PageShell>
  );
}
