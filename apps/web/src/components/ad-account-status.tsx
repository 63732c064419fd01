import { AD_ACCOUNT_STATUS } from '@ads/contracts';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import '@/locales/assets-namespace';

export type AdAccountStatusName = keyof typeof AD_ACCOUNT_STATUS;

const NAME_BY_CODE = new Map<number, AdAccountStatusName>(Object.entries(AD_ACCOUNT_STATUS).map(([name, code]) => [code, name as AdAccountStatusName]));

/** account_status values in filter order (reference §2). */
export const AD_ACCOUNT_STATUS_CODES: readonly number[] = Object.values(AD_ACCOUNT_STATUS);

export const adAccountStatusName = (code: number): AdAccountStatusName | undefined => NAME_BY_CODE.get(code);

const COLORS: Record<AdAccountStatusName, string | undefined> = {
  ACTIVE: 'success',
  DISABLED: 'error',
  UNSETTLED: 'warning',
  PENDING_RISK_REVIEW: 'processing',
  PENDING_SETTLEMENT: 'warning',
  IN_GRACE_PERIOD: 'warning',
  PENDING_CLOSURE: 'orange',
  CLOSED: undefined,
};

/** disable_reason codes (reference §2 and Meta's AdAccount reference); higher ones show as their number. */
const DISABLE_REASONS = [
  'NONE',
  'ADS_INTEGRITY_POLICY',
  'ADS_IP_REVIEW',
  'RISK_PAYMENT',
  'GRAY_ACCOUNT_SHUT_DOWN',
  'ADS_AFC_REVIEW',
  'BUSINESS_INTEGRITY_RAR',
  'PERMANENT_CLOSE',
  'UNUSED_RESELLER_ACCOUNT',
  'UNUSED_ACCOUNT',
] as const;

/** The label of an account_status code in the interface language (unknown codes keep their number). */
export function useAdAccountStatusLabel() {
  const { t } = useTranslation('assets');
  return (code: number) => {
    const name = adAccountStatusName(code);
    return name ? t(`accountStatus.${name}`) : t('accountStatus.unknown', { code });
  };
}

/** An ad account's status tag, with why it is disabled under it when the platform says. */
export function AdAccountStatus({ status, disableReason }: { status: number; disableReason: number }) {
  const { t } = useTranslation('assets');
  const label = useAdAccountStatusLabel();
  const name = adAccountStatusName(status);
  const reason = disableReason > 0 ? DISABLE_REASONS[disableReason] : undefined;
  return (
    <Flex vertical gap={2} align="flex-start">
      <Tag color={name ? COLORS[name] : undefined} style={{ marginInlineEnd: 0 }}>
        {label(status)}
      </Tag>
      {disableReason > 0 && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {reason ? t(`disableReason.${reason}`) : t('disableReason.other', { code: disableReason })}
        </Typography.Text>
      )}
    </Flex>
  );
}
