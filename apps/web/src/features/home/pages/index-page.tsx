import { AlertOutlined, LineChartOutlined } from '@ant-design/icons';
import { Card, Col, Empty, Flex, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/stores/session-store';

/**
 * The home dashboard frame: today's and yesterday's figures, the 30-day trend, top lists and
 * alerts. No delivery data exists until ad accounts are synced, so every figure shows "-"
 * (PRODUCT.md: divisions by zero and missing figures show "-") and each block says what fills it.
 */
export default function IndexPage() {
  const { t } = useTranslation('home');
  const user = useSession((s) => s.userInfo);
  const metrics = ['spend', 'revenue', 'roi', 'orders'] as const;

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="baseline">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('welcome', { name: user?.name || '-' })}
        </Typography.Title>
        <Typography.Text type="secondary">{t('usd')}</Typography.Text>
      </Flex>
      <Row gutter={[16, 16]}>
        {(['today', 'yesterday'] as const).map((day) =>
          metrics.map((m) => (
            <Col key={`${day}-${m}`} xs={12} lg={6}>
              <Card size="small">
                <Statistic title={`${t(day)} · ${t(m)}`} value="-" />
              </Card>
            </Col>
          )),
        )}
      </Row>
      <Card title={t('trend')} size="small">
        <Empty image={<LineChartOutlined style={{ fontSize: 48, opacity: 0.4 }} />} description={<><div>{t('noDelivery')}</div><Typography.Text type="secondary">{t('noDeliveryHint')}</Typography.Text></>} />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('topDramas')} size="small">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noDelivery')} />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('topCampaigns')} size="small">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noDelivery')} />
          </Card>
        </Col>
      </Row>
      <Card title={<><AlertOutlined /> {t('alerts')}</>} size="small">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noAlerts')} />
      </Card>
    </Flex>
  );
}
