import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = { ACTIVE: 'success', PAUSED: 'default', CAMPAIGN_PAUSED: 'default', ADSET_PAUSED: 'default', DELETED: 'error', ARCHIVED: 'default', IN_PROCESS: 'processing', WITH_ISSUES: 'warning', DISAPPROVED: 'error', PENDING_REVIEW: 'processing' };
const KNOWN = ['ACTIVE', 'PAUSED', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES', 'DISAPPROVED', 'PENDING_REVIEW'] as const;

/** A campaign / ad set / ad's effective status as the platform reports it, in words. */
export function AdStatusTag({ status, deleted }: { status: string | null; deleted: boolean }) {
  const { t } = useTranslation('adData');
  const s = deleted ? 'DELETED' : (status ?? '');
  if (!s) return null;
  const label = (KNOWN as readonly string[]).includes(s) ? t(`status.${s as (typeof KNOWN)[number]}`) : s;
  return <Tag color={COLORS[s] ?? 'default'}>{label}</Tag>;
}
