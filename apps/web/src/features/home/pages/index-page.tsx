import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/stores/session-store';
import { useHomeOverview } from '../api/use-home-overview';
import { AssetFigures } from '../components/asset-figures';
import { DeliveryDashboard } from '../components/delivery-dashboard';
import { OverviewError } from '../components/overview-error';

/**
 * 首页 (/index): the delivery dashboard of the caller's data scope (today and yesterday, the
 * 30-day trend, top dramas and campaigns, alerts), then their authorization assets and
 * materials, counted as each list screen counts them.
 */
export default function IndexPage() {
  const { t } = useTranslation('home');
  const user = useSession((s) => s.userInfo);
  const overview = useHomeOverview();

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="baseline" wrap gap={8}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('welcome', { name: user?.name || '-' })}
        </Typography.Title>
        <Typography.Text type="secondary">{t('scopeNote')}</Typography.Text>
      </Flex>
      <DeliveryDashboard />
      {overview.isError && !overview.data ? (
        <OverviewError onRetry={() => void overview.refetch()} />
      ) : (
        <AssetFigures data={overview.data} loading={overview.isPending} />
      )}
    </Flex>
  );
}
