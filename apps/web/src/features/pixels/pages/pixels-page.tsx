import { LinkOutlined } from '@ant-design/icons';
import { endpoints, type Pixel } from '@ads/contracts';
import { Button, Card } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AssociateModal } from '@/components/associate-modal';
import { ConnectFirstButton } from '@/components/connect-first-button';
import { ListEmpty } from '@/components/list-empty';
import { PageShell } from '@/components/page-shell';
import { SelectionBar } from '@/components/selection-bar';
import { useRouteTitle } from '@/components/use-route-title';
import { canCall, useViewer } from '@/lib/permissions';
import { useUrlQuery } from '@/lib/use-url-query';
import '@/locales/assets-namespace';
import { useAssociatePixels } from '../api/use-associate-pixels';
import { pixelsQuerySchema, usePixels, type PixelsQuery } from '../api/use-pixels';
import { PixelFilters, type PixelFilterValues } from '../components/pixel-filters';
import { PixelTable } from '../components/pixel-table';


/** /auth/pixel 像素管理: pixels, when they last fired, and the ad accounts they are shared with. */
export default function PixelsPage() {
  const { t } = useTranslation('assets');
  const title = useRouteTitle('/auth/pixel');
  const viewer = useViewer();
  const [query, setQuery] = useUrlQuery(pixelsQuerySchema);
  const pixels = usePixels(query);
  // Associating means picking ad accounts, which needs the ad-account list.
  const canAssociate = canCall(viewer, endpoints.adAccounts.list);
  const associate = useAssociatePixels();
  const [selected, setSelected] = useState<Map<number, Pixel>>(new Map());
  const [target, setTarget] = useState<Pixel[] | null>(null);

  const filters = useMemo<PixelFilterValues>(() => ({ keyword: query.keyword, ad_account_id: query.ad_account_id }), [query.keyword, query.ad_account_id]);
  const hasFilters = query.keyword !== undefined || query.ad_account_id !== undefined;

  const total = pixels.data?.total;
  const lastPage = total === undefined ? query.page : Math.max(1, Math.ceil(total / query.page_size));
  useEffect(() => {
    if (!pixels.isPlaceholderData && query.page > lastPage) setQuery({ ...query, page: lastPage }, { replace: true });
  }, [pixels.isPlaceholderData, query, lastPage, setQuery]);

  const handleFilters = (next: PixelFilterValues) =>
    setQuery({ ...next, page: 1, page_size: query.page_size, sort_field: query.sort_field, sort_order: query.sort_order } satisfies PixelsQuery);

  return (
    <PageShell title={title}>
      <Card size="small">
        <PixelFilters value={filters} onChange={handleFilters} canPickAdAccounts={canAssociate} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <SelectionBar count={selected.size} onClear={() => setSelected(new Map())}>
          <Button size="small" type="primary" icon={<LinkOutlined />} onClick={() => setTarget([...selected.values()])}>
            {t('pixels.associate')}
          </Button>
        </SelectionBar>
        <PixelTable
          query={query}
          data={pixels.data}
          loading={pixels.isFetching}
          empty={<ListEmpty query={pixels} filtered={hasFilters} emptyText={pixels.data?.outside_scope ? t('outsideScope.pixels', { count: pixels.data.outside_scope }) : t('pixels.empty')} emptyAction={<ConnectFirstButton />} />}
          selectedIds={[...selected.keys()]}
          onSelect={(ids, rows) => setSelected((prev) => new Map(ids.map((id) => [id, rows.find((r) => r?.id === id) ?? prev.get(id)!] as const).filter(([, p]) => p)))}
          onQueryChange={setQuery}
          onAssociate={canAssociate ? (p) => setTarget([p]) : undefined}
        />
      </Card>
      <AssociateModal
        names={target?.map((p) => p.name) ?? null}
        title={t('pixels.associateTitle')}
        noun={t('pixels.noun')}
        note={t('pixels.associateNote')}
        withUsers={false}
        canPickAdAccounts={canAssociate}
        onSubmit={async (v) => {
          const { updated } = await associate.mutateAsync({ pixel_ids: (target ?? []).map((p) => p.id), ad_account_ids: v.ad_account_ids ?? [], mode: v.mode });
          if ((target?.length ?? 0) > 1) setSelected(new Map());
          return updated;
        }}
        onClose={() => setTarget(null)}
      />
    </PageShell>
  );
}
