import { LineChartOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasPath, useViewer } from '@/lib/permissions';
import { useSession } from '@/stores/session-store';
import { useHomeOverview } from '../api/use-home-overview';
import { AssetFigures } from '../components/asset-figures';
import { OverviewError } from '../components/overview-error';

/**
 * 首页 (/index): the caller's authorization assets and materials, counted as each list screen
 * counts them. The delivery dashboard (today's spend, revenue and ROI, the 30-day trend) comes
 * with the orders issue; until then the block points to 广告数据 rather than showing numbers of its own.
 */
export default function IndexPage() {
  const { t } = useTranslation('home');
  const user = useSession((s) => s.userInfo);
  const overview = useHomeOverview();
  const viewer = useViewer();

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
        >
          {hasPath(viewer, '/advertising/user') && (
            <Link to="/advertising/user">
              <Button type="primary">{t('delivery.open')}</Button>
            </Link>
          )}
        </Empty>
      </Card>
    </Flex>
  );
}
