import { ToolOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { firstScreenPath } from '@/app/guard';
import { useSession } from '@/stores/session-store';
import { useRouteTitle } from './use-route-title';

/**
 * Screens not built yet say so plainly instead of showing invented data. "Back to home" goes
 * where '/' leads (the first permitted screen), and is left out when that is this very page.
 */
export default function NotAvailablePage() {
  const { t } = useTranslation();
  const title = useRouteTitle();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const home = useSession((s) => firstScreenPath(s.userInfo?.paths ?? []));
  const canGoHome = home !== null && home !== pathname;
  return (
    <Result
      icon={<ToolOutlined />}
      title={t('notAvailable.title', { title })}
      subTitle={t('notAvailable.body')}
      extra={canGoHome ? <Button type="primary" onClick={() => navigate(home, { replace: true })}>{t('notAvailable.home')}</Button> : undefined}
    />
  );
}
