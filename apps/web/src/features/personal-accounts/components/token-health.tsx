import { TOKEN_EXPIRY_WARNING_DAYS, type PersonalAccount } from '@ads/contracts';
import { Flex, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TokenStatusTag } from '@/components/token-status-tag';
import { daysUntil, formatDateTime, formatRelative } from '@/lib/format';

/** How a token expires, in words: never / expired on … / expires in N days (red within the warning window). */
export function TokenExpiry({ expiresAt }: { expiresAt: string | null }) {
  const { t } = useTranslation('assets');
  if (!expiresAt) return <Typography.Text type="secondary">{t('personal.expiry.never')}</Typography.Text>;
  const days = daysUntil(expiresAt) ?? 0;
  const at = formatDateTime(expiresAt);
  if (days <= 0)
    return (
      <Typography.Text type="danger" data-testid="token-expiry">
        {t('personal.expiry.expired', { date: at })}
      </Typography.Text>
    );
  const soon = days <= TOKEN_EXPIRY_WARNING_DAYS;
  return (
    <Tooltip title={at}>
      <Typography.Text type={soon ? 'danger' : 'secondary'} strong={soon} data-testid="token-expiry">
        {t('personal.expiry.inDays', { count: days })}
      </Typography.Text>
    </Tooltip>
  );
}

/** The token column: status tag, why (when not valid), expiry, and when it was last checked. */
export function TokenHealth({ account }: { account: PersonalAccount }) {
  const { t } = useTranslation('assets');
  return (
    <Flex vertical gap={2} align="flex-start">
      <TokenStatusTag status={account.status} />
      {account.status_reason && account.status !== 'valid' && (
        <Typography.Text type={account.status === 'invalid' ? 'danger' : 'warning'} style={{ fontSize: 12, maxWidth: 156 }} ellipsis={{ tooltip: account.status_reason }}>
          {account.status_reason}
        </Typography.Text>
      )}
      <span style={{ fontSize: 12 }}>
        <TokenExpiry expiresAt={account.token_expires_at} />
      </span>
      {account.last_checked_at && (
        <Tooltip title={formatDateTime(account.last_checked_at)}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('personal.checkedAgo', { time: formatRelative(account.last_checked_at) })}
          </Typography.Text>
        </Tooltip>
      )}
    </Flex>
  );
}

/** Granted scopes, with each missing required one as a red tag (it blocks what needs it). */
export function ScopesCell({ account }: { account: PersonalAccount }) {
  const { t } = useTranslation('assets');
  return (
    <Flex vertical gap={4} align="flex-start">
      <Tooltip title={account.scopes.length ? account.scopes.join(', ') : undefined}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('personal.scopesGranted', { count: account.scopes.length })}
        </Typography.Text>
      </Tooltip>
      {account.missing_scopes.length === 0 ? (
        <Typography.Text type="success" style={{ fontSize: 12 }}>
          {t('personal.scopesComplete')}
        </Typography.Text>
      ) : (
        <Flex gap={4} wrap data-testid="missing-scopes">
          {account.missing_scopes.map((s) => (
            <Tooltip key={s} title={t('personal.missingScope', { scope: s })}>
              <Typography.Text type="danger" code style={{ fontSize: 12 }}>
                {s}
              </Typography.Text>
            </Tooltip>
          ))}
        </Flex>
      )}
    </Flex>
  );
}
