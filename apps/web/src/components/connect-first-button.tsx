import { ArrowRightOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { hasPath, useViewer } from '@/lib/permissions';
import '@/locales/assets-namespace';

/**
 * For empty asset lists: a way to the screen where personal accounts are connected (their sync
 * fills these lists), when the viewer may open it.
 */
export function ConnectFirstButton() {
  const { t } = useTranslation('assets');
  const navigate = useNavigate();
  const viewer = useViewer();
  const target = hasPath(viewer, '/operation/auth') ? '/operation/auth' : hasPath(viewer, '/auth/personage') ? '/auth/personage' : null;
  if (!target) return null;
  return (
    <Button type="primary" icon={<ArrowRightOutlined />} iconPlacement="end" onClick={() => navigate(target)}>
      {t('common.goConnect')}
    </Button>
  );
}
