import { ApiOutlined, ClockCircleOutlined, DisconnectOutlined, GlobalOutlined, StopOutlined, SyncOutlined, WarningOutlined } from '@ant-design/icons';
import { DASHBOARD_ALERT_KINDS, type Dashboard, type DashboardAlert } from '@ads/contracts';
import { Card, Empty, Flex, List, Tag, Tooltip, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAdAccountStatusLabel } from '@/components/ad-account-status';
import { formatDateTime, formatRelative } from '@/lib/format';
import { hasPath, useViewer } from '@/lib/permissions';

type Kind = DashboardAlert['kind'];

/** The screen where each kind of alert is dealt with. */
const SCREEN: Record<Kind, string> = {
  token_expiring: '/auth/personage',
  token_invalid: '/auth/personage',
  ad_account_disabled: '/auth/account',
  sync_failed: '/auth/account',
  job_failed: '/admin/sys/cron',
  site_silent: '/auth/site',
  site_failing: '/auth/site',
};

const ICON: Record<Kind, ReactNode> = {
  token_expiring: <ClockCircleOutlined />,
  token_invalid: <ApiOutlined />,
  ad_account_disabled: <StopOutlined />,
  sync_failed: <SyncOutlined />,
  job_failed: <WarningOutlined />,
  site_silent: <GlobalOutlined />,
  site_failing: <DisconnectOutlined />,
};

const WARNING_ONLY: Kind[] = ['token_expiring', 'site_silent'];

/**
 * What needs someone's attention, from the states the system holds: tokens expiring within a week
 * or dead, ad accounts that cannot deliver, ad-account syncs whose last run failed, scheduled
 * tasks that failed (super admin), sites whose order webhook is silent or refused. Each links to
 * the screen that deals with it when the viewer may open it.
 */
export function DashboardAlerts({ data }: { data: Dashboard }) {
  const { t } = useTranslation('home');
  const { token } = theme.useToken();
  const viewer = useViewer();
  const statusLabel = useAdAccountStatusLabel();
  const alerts = data.alerts;
  const counts = data.alert_counts;
  const total = DASHBOARD_ALERT_KINDS.reduce((s, k) => s + counts[k], 0);
  const time = (iso: string | null) => (iso ? <Tooltip title={formatDateTime(iso)}>{formatRelative(iso)}</Tooltip> : null);

  const when = (a: DashboardAlert): ReactNode => {
    if (!a.at) return a.kind === 'site_silent' ? t('alerts.neverReceived') : null;
    if (a.kind === 'token_expiring' || a.kind === 'token_invalid') return <>{t('alerts.expires')} {time(a.at)}</>;
    if (a.kind === 'site_silent') return <>{t('alerts.lastOrder')} {time(a.at)}</>;
    return time(a.at);
  };

  const more = DASHBOARD_ALERT_KINDS.filter((k) => counts[k] > alerts.filter((a) => a.kind === k).length);

  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center">
          <WarningOutlined />
          <span>{t('alerts.title')}</span>
          {total > 0 && <Tag color="warning">{total}</Tag>}
        </Flex>
      }
      style={{ height: '100%' }}
      data-testid="dashboard-alerts"
    >
      {alerts.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alerts.none')} />
      ) : (
        <List<DashboardAlert>
          size="small"
          dataSource={alerts}
          renderItem={(a) => {
            const screen = SCREEN[a.kind];
            const colour = WARNING_ONLY.includes(a.kind) ? token.colorWarning : token.colorError;
            return (
              <List.Item
                key={`${a.kind}-${a.id ?? a.name}`}
                data-testid={`alert-${a.kind}`}
                extra={hasPath(viewer, screen) ? <Link to={screen}>{t('alerts.open')}</Link> : undefined}
              >
                <Flex gap={10} align="flex-start" style={{ minWidth: 0 }}>
                  <span style={{ color: colour, marginTop: 2 }}>{ICON[a.kind]}</span>
                  <Flex vertical style={{ minWidth: 0 }}>
                    <Typography.Text>
                      {t(`alerts.kinds.${a.kind}`)} · <Typography.Text strong>{a.name}</Typography.Text>
                    </Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: a.detail ?? undefined }}>
                      {a.kind === 'ad_account_disabled' && a.status !== null ? statusLabel(a.status) : a.detail}
                      {(a.detail || a.status !== null) && a.at ? ' · ' : ''}
                      {when(a)}
                    </Typography.Text>
                  </Flex>
                </Flex>
              </List.Item>
            );
          }}
        />
      )}
      {more.length > 0 && (
        <Flex vertical data-testid="alerts-more">
          {more.map((k) => (
            <Typography.Text key={k} type="secondary" style={{ fontSize: 12 }}>
              {t('alerts.more', { count: counts[k] - alerts.filter((a) => a.kind === k).length, kind: t(`alerts.kinds.${k}`) })}
            </Typography.Text>
          ))}
        </Flex>
      )}
    </Card>
  );
}
