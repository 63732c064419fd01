import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** A failed overview load with a retry (the figures are never guessed). */
export function OverviewError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('home');
  const { t: tc } = useTranslation();
  return <Result status="warning" title={t('loadFailed')} extra={<Button onClick={onRetry}>{tc('states.retry')}</Button>} />;
}
