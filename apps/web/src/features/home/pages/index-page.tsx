import { LineChartOutlined } from '@ant-design/icons';
import { Card, Empty, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/stores/session-store';
import { useHomeOverview } from '../api/use-home-overview';
import { AssetFigures } from '../components/asset-figures';
import { OverviewError } from '../components/overview-error';

/**
 * 首页 (/index): the caller's authorization assets and materials, counted as each list screen
 * counts them. Delivery figures (spend, revenue, ROI) need ad data, which is not synced yet, so
 * that block says so instead of showing invented numbers.
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
      {overview.isError && !overview.data ? (
        <OverviewError onRetry={() => void overview.refetch()} />
      ) : (
        <AssetFigures data={overview.data} loading={overview.isPending} />
      )}
      <Card title={t('delivery.title')} size="small">
        <Empty
          image={<LineChartOutlined style={{ fontSize: 48, opacity: 0.4 }} />}
          description={
            <>
              <div>{t('delivery.empty')}</div>
              <Typography.Text type="secondary">{t('delivery.hint')}</Typography.Text>
            </>
          }
        />
      </Card>
    </Flex>
  );
}
