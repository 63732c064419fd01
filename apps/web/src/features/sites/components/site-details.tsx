import { DeleteOutlined, EditOutlined, KeyOutlined } from '@ant-design/icons';
import type { Site } from '@ads/contracts';
import { Button, Card, Descriptions, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { LinkPreview } from './link-preview';

interface Props {
  site: Site;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}

/** A site's settings: domain, link template and its expansion, pixel, the webhook URL to give the site. */
export function SiteDetails({ site, onEdit, onRotate, onDelete }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center">
          <span>{site.name}</span>
          <Tag color={site.platform === 'dj' ? 'magenta' : 'cyan'}>{t(`platform.${site.platform}`)}</Tag>
        </Flex>
      }
      extra={
        <Flex gap={4} wrap>
          <Button size="small" icon={<EditOutlined />} onClick={onEdit}>
            {tc('actions.edit')}
          </Button>
          <Button size="small" icon={<KeyOutlined />} onClick={onRotate}>
            {t('sites.rotate')}
          </Button>
          <Button size="small" danger icon={<DeleteOutlined />} onClick={onDelete}>
            {tc('actions.delete')}
          </Button>
        </Flex>
      }
    >
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        items={[
          { key: 'domain', label: t('sites.columns.domain'), children: site.domain },
          { key: 'pixel', label: t('sites.columns.pixel'), children: site.pixel?.name ?? <Typography.Text type="secondary">{t('sites.noPixel')}</Typography.Text> },
          {
            key: 'template',
            label: t('sites.columns.linkTemplate'),
            span: 'filled',
            children: (
              <Flex vertical gap={6} style={{ width: '100%' }}>
                <Typography.Text code style={{ wordBreak: 'break-all' }}>
                  {site.link_template}
                </Typography.Text>
                <LinkPreview template={site.link_template} />
              </Flex>
            ),
          },
          {
            key: 'webhook',
            label: t('sites.columns.webhook'),
            span: 'filled',
            children: (
              <Typography.Text copyable={{ tooltips: [t('common.copy'), t('common.copied')] }} style={{ wordBreak: 'break-all' }} data-testid="webhook-url">
                {site.webhook_url}
              </Typography.Text>
            ),
          },
          ...(site.remark ? [{ key: 'remark', label: t('sites.columns.remark'), span: 'filled' as const, children: site.remark }] : []),
          { key: 'updated', label: t('sites.columns.updatedAt'), children: formatDateTime(site.updated_at) },
        ]}
      />
    </Card>
  );
}
