import { FacebookOutlined, KeyOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { REQUIRED_SCOPES, TOKEN_EXPIRY_WARNING_DAYS } from '@ads/contracts';
import { Button, Card, Col, Flex, Row, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  onOauth: () => void;
  oauthLoading: boolean;
  onPasteToken: () => void;
  /** Smaller, for the management list when accounts exist already. */
  compact?: boolean;
}

/**
 * 连接个号: what a connection needs (the scopes and why), the OAuth button, and the token paste
 * alternative for system-user tokens.
 */
export function ConnectPanel({ onOauth, oauthLoading, onPasteToken, compact }: Props) {
  const { t } = useTranslation('assets');
  const { token } = theme.useToken();
  return (
    <Card size="small" data-testid="connect-panel">
      <Row gutter={[24, 16]} align="middle">
        <Col xs={24} lg={compact ? 24 : 10}>
          <Flex vertical gap={12}>
            <Flex gap={12} align="center">
              <SafetyCertificateOutlined style={{ fontSize: 28, color: token.colorPrimary }} />
              <Typography.Title level={5} style={{ margin: 0 }}>
                {t('personal.connect.title')}
              </Typography.Title>
            </Flex>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {t('personal.connect.body', { days: TOKEN_EXPIRY_WARNING_DAYS })}
            </Typography.Paragraph>
            <Flex gap={8} wrap>
              <Button type="primary" size="large" icon={<FacebookOutlined />} loading={oauthLoading} onClick={onOauth}>
                {t('personal.connect.oauth')}
              </Button>
              <Button size="large" icon={<KeyOutlined />} onClick={onPasteToken}>
                {t('personal.connect.paste')}
              </Button>
            </Flex>
          </Flex>
        </Col>
        {!compact && (
          <Col xs={24} lg={14}>
            <Typography.Text strong>{t('personal.connect.scopesTitle')}</Typography.Text>
            <Flex vertical gap={6} style={{ marginTop: 8 }} data-testid="required-scopes">
              {REQUIRED_SCOPES.map((scope) => (
                <Flex key={scope} gap={8} align="baseline" wrap>
                  <Typography.Text code>{scope}</Typography.Text>
                  <Typography.Text type="secondary">{t(`scopes.${scope}`)}</Typography.Text>
                </Flex>
              ))}
            </Flex>
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
              {t('personal.connect.scopesNote')}
            </Typography.Paragraph>
          </Col>
        )}
      </Row>
    </Card>
  );
}
