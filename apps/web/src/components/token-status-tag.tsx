import type { TokenStatus } from '@ads/contracts';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import '@/locales/assets-namespace';

const COLORS: Record<TokenStatus, string> = { valid: 'success', expiring: 'warning', invalid: 'error' };

/** 有效 / 即将过期 / 已失效, with the server's reason on hover (preset colours follow the theme). */
export function TokenStatusTag({ status, reason, children }: { status: TokenStatus; reason?: string | null; children?: string }) {
  const { t } = useTranslation('assets');
  const tag = (
    <Tag color={COLORS[status]} style={{ marginInlineEnd: 0 }}>
      {children ?? t(`tokenStatus.${status}`)}
    </Tag>
  );
  return reason ? <Tooltip title={reason}>{tag}</Tooltip> : tag;
}
