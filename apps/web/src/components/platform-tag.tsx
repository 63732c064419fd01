import type { Platform } from '@ads/contracts';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import '@/locales/assets-namespace';

/** 短剧 (dj) / 电商 (ec), or "not set". */
export function PlatformTag({ platform }: { platform: Platform | null }) {
  const { t } = useTranslation('assets');
  if (!platform) return <Typography.Text type="secondary">{t('platform.none')}</Typography.Text>;
  return (
    <Tag color={platform === 'dj' ? 'magenta' : 'cyan'} style={{ marginInlineEnd: 0 }}>
      {t(`platform.${platform}`)}
    </Tag>
  );
}

/** 托管中, or a quiet "not hosted". */
export function HostedTag({ hosted }: { hosted: boolean }) {
  const { t } = useTranslation('assets');
  return hosted ? (
    <Tag color="geekblue" style={{ marginInlineEnd: 0 }}>
      {t('common.hosted')}
    </Tag>
  ) : (
    <Typography.Text type="secondary">{t('common.notHosted')}</Typography.Text>
  );
}
