import { InfoCircleOutlined, SafetyOutlined, StopOutlined, WalletOutlined } from '@ant-design/icons';
import { Alert, Card, Col, Flex, Row, Statistic, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What hosting does, said plainly: rules (stop-loss, budget caps) watch hosted accounts and act
 * on them through the platform; only hosted accounts are acted on.
 */
export function HostingExplainer({ hostedCount, availableCount, rulesOn }: { hostedCount: number | undefined; availableCount: number | undefined; rulesOn: number | undefined }) {
  const { t } = useTranslation('hosting');
  const { token } = theme.useToken();
  const rule = (icon: ReactNode, title: string, body: string) => (
    <Flex gap={10} align="flex-start">
      <span style={{ fontSize: 18, color: token.colorPrimary, lineHeight: 1.4 }}>{icon}</span>
      <Flex vertical gap={2}>
        <Typography.Text strong>{title}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {body}
        </Typography.Text>
      </Flex>
    </Flex>
  );
  return (
    <Card size="small" data-testid="hosting-explainer">
      <Row gutter={[24, 16]}>
        <Col xs={24} xl={16}>
          <Flex vertical gap={12}>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('explain.title')}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {t('explain.body')}
            </Typography.Paragraph>
            <Row gutter={[16, 12]}>
              <Col xs={24} md={8}>
                {rule(<StopOutlined />, t('explain.stopLoss'), t('explain.stopLossBody'))}
              </Col>
              <Col xs={24} md={8}>
                {rule(<WalletOutlined />, t('explain.budgetCap'), t('explain.budgetCapBody'))}
              </Col>
              <Col xs={24} md={8}>
                {rule(<SafetyOutlined />, t('explain.audit'), t('explain.auditBody'))}
              </Col>
            </Row>
            <Alert type="info" showIcon icon={<InfoCircleOutlined />} title={t('explain.notYet')} description={t('explain.notYetBody')} data-testid="rules-hosted-only" />
          </Flex>
        </Col>
        <Col xs={24} xl={8}>
          <Flex gap={32} justify="center" align="center" style={{ height: '100%' }}>
            <Statistic title={t('stats.hosted')} value={hostedCount ?? '-'} />
            <Statistic title={t('stats.available')} value={availableCount ?? '-'} />
            <Statistic title={t('stats.rules')} value={rulesOn ?? '-'} />
          </Flex>
        </Col>
      </Row>
    </Card>
  );
}
