import { ApiOutlined, FileImageOutlined, FlagOutlined, WalletOutlined } from '@ant-design/icons';
import type { HomeOverview } from '@ads/contracts';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { FigureCard } from './figure-card';

/** Personal accounts with token health, ad accounts, pages and pixels, materials: the same on both landing pages. */
export function AssetFigures({ data, loading }: { data: HomeOverview | undefined; loading: boolean }) {
  const { t } = useTranslation('home');
  const pa = data?.personal_accounts;
  const ad = data?.ad_accounts;
  const mat = data?.materials;
  const cols = { xs: 24, sm: 12, xl: 6 };
  return (
    <Row gutter={[16, 16]}>
      <Col {...cols}>
        <FigureCard
          title={t('figures.personalAccounts')}
          icon={<ApiOutlined />}
          value={pa?.total}
          to="/auth/personage"
          loading={loading}
          figures={pa ? [
            { label: t('figures.tokenValid'), value: pa.valid },
            { label: t('figures.tokenExpiring'), value: pa.expiring, tone: 'warning' },
            { label: t('figures.tokenInvalid'), value: pa.invalid, tone: 'danger' },
          ] : []}
        />
      </Col>
      <Col {...cols}>
        <FigureCard
          title={t('figures.adAccounts')}
          icon={<WalletOutlined />}
          value={ad?.total}
          to="/auth/account"
          loading={loading}
          figures={ad ? [{ label: t('figures.active'), value: ad.active }, { label: t('figures.hosted'), value: ad.hosted }] : []}
        />
      </Col>
      <Col {...cols}>
        <FigureCard
          title={t('figures.pages')}
          icon={<FlagOutlined />}
          value={data?.pages}
          to="/auth/homepage"
          loading={loading}
          figures={data ? [{ label: t('figures.pixels'), value: data.pixels }] : []}
        />
      </Col>
      <Col {...cols}>
        <FigureCard
          title={t('figures.materials')}
          icon={<FileImageOutlined />}
          value={mat?.total}
          to="/material/upload"
          loading={loading}
          figures={mat ? [{ label: t('figures.dj'), value: mat.dj }, { label: t('figures.ec'), value: mat.ec }] : []}
        />
      </Col>
    </Row>
  );
}
