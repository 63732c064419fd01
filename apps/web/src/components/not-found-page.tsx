import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '@/stores/session-store';

/** Unknown or unpermitted paths end here (SPEC.md §2, §8). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useSession((s) => s.token);
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.body')}
      style={{ paddingTop: 80 }}
      extra={
        <Button type="primary" onClick={() => navigate(token ? '/' : '/login', { replace: true })}>
          {token ? t('notFound.home') : t('notFound.login')}
        </Button>
      }
    />
  );
}
