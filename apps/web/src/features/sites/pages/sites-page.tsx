import { GlobalOutlined, PlusOutlined } from '@ant-design/icons';
import type { Platform, Site } from '@ads/contracts';
import { App, Button, Card, Col, Empty, Flex, Result, Row, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListQuery } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import { hasPath, useViewer } from '@/lib/permissions';
import '@/locales/assets-namespace';
import { useDeleteSite } from '../api/use-delete-site';
import { useRotateSecret } from '../api/use-rotate-secret';
import { useSites } from '../api/use-sites';
import { CatalogPanel } from '../components/catalog-panel';
import { sitesScreenQuerySchema } from '../components/catalog-query';
import { SecretModal, type ShownSecret } from '../components/secret-modal';
import { SiteDetails } from '../components/site-details';
import { SiteFormDrawer } from '../components/site-form-drawer';
import { SiteList } from '../components/site-list';

/** /auth/site 站点关联: landing sites (list on the left) and the chosen one's settings and catalog. */
export default function SitesPage() {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const title = useRouteTitle('/auth/site');
  const viewer = useViewer();
  const list = useListQuery(sitesScreenQuerySchema, { filterKeys: ['keyword', 'language', 'test_status', 'tag'] });
  const { query, set: setQuery } = list;
  const sites = useSites();
  const deleteSite = useDeleteSite();
  const rotate = useRotateSecret();
  const [keyword, setKeyword] = useState('');
  const [platform, setPlatform] = useState<Platform | 'all'>('all');
  const [formTarget, setFormTarget] = useState<'create' | Site | null>(null);
  // A webhook secret lives only here, and only until its dialog closes.
  const [shownSecret, setShownSecret] = useState<ShownSecret | null>(null);

  const all = useMemo(() => sites.data?.list ?? [], [sites.data]);
  const shown = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    return all.filter((s) => (platform === 'all' || s.platform === platform) && (!k || s.name.toLowerCase().includes(k) || s.domain.includes(k)));
  }, [all, keyword, platform]);
  const selected = all.find((s) => s.id === query.site);

  // Open the first site when none (or a deleted one) is chosen.
  useEffect(() => {
    if (!sites.data || selected) return;
    const first = all[0];
    if (first) setQuery({ page: 1, page_size: query.page_size, site: first.id }, { replace: true });
  }, [sites.data, selected, all, query.page_size, setQuery]);

  const handleSelect = (id: number) => {
    if (id !== query.site) setQuery({ page: 1, page_size: query.page_size, site: id });
  };

  const handleRotate = (site: Site) =>
    confirmAction(modal, {
      title: t('sites.confirmRotate.title', { name: site.name }),
      content: t('sites.confirmRotate.body'),
      okText: t('sites.confirmRotate.ok'),
      danger: true,
      action: async () => {
        const { webhook_secret } = await rotate.mutateAsync(site.id);
        setShownSecret({ title: t('sites.secret.rotatedTitle', { name: site.name }), siteId: site.id, siteName: site.name, webhookUrl: site.webhook_url, secret: webhook_secret });
      },
    });

  const handleDelete = (site: Site) =>
    confirmAction(modal, {
      title: t('sites.confirmDelete.title', { name: site.name }),
      content: (
        <Flex vertical gap={4}>
          <span>{t('sites.confirmDelete.body')}</span>
          {site.catalog_count > 0 && (
            <Typography.Text type="warning">
              {t(site.platform === 'dj' ? 'sites.confirmDelete.hasDramas' : 'sites.confirmDelete.hasProducts', { count: site.catalog_count })}
            </Typography.Text>
          )}
        </Flex>
      ),
      okText: tc('actions.delete'),
      danger: true,
      action: async () => {
        await deleteSite.mutateAsync(site.id);
        message.success(t('sites.deleted', { name: site.name }));
        setQuery({ page: 1, page_size: query.page_size }, { replace: true });
      },
    });

  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setFormTarget('create')}>
      {t('sites.create')}
    </Button>
  );

  let right;
  if (sites.isError && !sites.data)
    right = <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void sites.refetch()}>{tc('states.retry')}</Button>} />;
  else if (sites.data && all.length === 0)
    right = (
      <Card>
        <Empty image={<GlobalOutlined style={{ fontSize: 48, opacity: 0.45 }} />} description={<><div>{t('sites.empty.title')}</div><Typography.Text type="secondary">{t('sites.empty.body')}</Typography.Text></>}>
          {createButton}
        </Empty>
      </Card>
    );
  else if (selected)
    right = (
      <Flex vertical gap={16}>
        <SiteDetails site={selected} onEdit={() => setFormTarget(selected)} onRotate={() => handleRotate(selected)} onDelete={() => handleDelete(selected)} />
        <CatalogPanel key={selected.id} site={selected} list={list} />
      </Flex>
    );
  else right = <Card loading />;

  return (
    <PageShell title={title}>
      <Row gutter={[16, 16]} wrap>
        <Col flex="300px" style={{ minWidth: 260 }}>
          <SiteList
            sites={shown}
            loading={sites.isPending}
            selectedId={selected?.id}
            onSelect={handleSelect}
            keyword={keyword}
            onKeyword={setKeyword}
            platform={platform}
            onPlatform={setPlatform}
            onCreate={() => setFormTarget('create')}
            hasAny={all.length > 0}
          />
        </Col>
        <Col flex="1 1 600px" style={{ minWidth: 0 }}>
          {right}
        </Col>
      </Row>
      <SiteFormDrawer
        target={formTarget}
        canPickPixel={hasPath(viewer, '/auth/pixel')}
        onClose={() => setFormTarget(null)}
        onCreated={(site, secret) => {
          setQuery({ page: 1, page_size: query.page_size, site: site.id });
          setShownSecret({ title: t('sites.secret.createdTitle', { name: site.name }), siteId: site.id, siteName: site.name, webhookUrl: null, secret });
        }}
      />
      <SecretModal
        // A new site's webhook URL arrives with the refreshed list.
        value={shownSecret && { ...shownSecret, webhookUrl: shownSecret.webhookUrl ?? all.find((s) => s.id === shownSecret.siteId)?.webhook_url ?? null }}
        onClose={() => setShownSecret(null)}
      />
    </PageShell>
  );
}
