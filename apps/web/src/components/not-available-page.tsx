import { ToolOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRouteTitle } from './use-route-title';

/** Screens not built yet say so plainly instead of showing invented data. */
export default function NotAvailablePage() {
  const { t } = useTranslation();
  const title = useRouteTitle();
  const navigate = useNavigate();
  return (
    <Result
      icon={<ToolOutlined />}
      title={t('notAvailable.title', { title })}
      subTitle={t('notAvailable.body')}
      extra={<Button type="primary" onClick={() => navigate('/', { replace: true })}>{t('notAvailable.home')}</Button>}
    />
  );
}
