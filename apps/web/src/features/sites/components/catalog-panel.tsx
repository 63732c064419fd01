import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { Drama, Product, Site } from '@ads/contracts';
import { App, Button, Card, Flex } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '@/components/list-empty';
import { confirmAction } from '@/lib/confirm';
import { useDeleteDrama } from '../api/use-delete-drama';
import { useDeleteProduct } from '../api/use-delete-product';
import { useDramas } from '../api/use-dramas';
import { useExportCatalog } from '../api/use-export-catalog';
import { useProducts } from '../api/use-products';
import { CatalogFilters, type CatalogFilterValues } from './catalog-filters';
import { dramasBody, productsBody, type SitesScreenQuery } from './catalog-query';
import { DramaTable, ProductTable } from './catalog-tables';
import { DramaFormModal } from './drama-form-modal';
import { ImportCatalogModal } from './import-catalog-modal';
import { ProductFormModal } from './product-form-modal';

interface Props {
  site: Site;
  query: SitesScreenQuery;
  onQueryChange: (next: SitesScreenQuery, opts?: { replace?: boolean }) => void;
}

/** A site's catalog: dramas for a drama site (dj), products for a shop (ec); filters, CRUD, import, export. */
export function CatalogPanel({ site, query, onQueryChange }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const kind = site.platform === 'dj' ? 'dramas' : 'products';
  const dramas = useDramas(dramasBody(query, site.id), { enabled: kind === 'dramas' });
  const products = useProducts(productsBody(query, site.id), { enabled: kind === 'products' });
  const list = kind === 'dramas' ? dramas : products;
  const deleteDrama = useDeleteDrama();
  const deleteProduct = useDeleteProduct();
  const exportCatalog = useExportCatalog(kind);
  const [dramaTarget, setDramaTarget] = useState<'create' | Drama | null>(null);
  const [productTarget, setProductTarget] = useState<'create' | Product | null>(null);
  const [importOpen, setImportOpen] = useState(false);

  const filters: CatalogFilterValues = { keyword: query.keyword, tag: query.tag, ...(kind === 'dramas' && { language: query.language, test_status: query.test_status }) };
  const hasFilters = Object.values(filters).some((v) => v !== undefined);

  const total = list.data?.total;
  const lastPage = total === undefined ? query.page : Math.max(1, Math.ceil(total / query.page_size));
  useEffect(() => {
    if (!list.isPlaceholderData && query.page > lastPage) onQueryChange({ ...query, page: lastPage }, { replace: true });
  }, [list.isPlaceholderData, query, lastPage, onQueryChange]);

  const handleCreate = () => (kind === 'dramas' ? setDramaTarget('create') : setProductTarget('create'));

  const handleDelete = (row: Drama | Product) =>
    confirmAction(modal, {
      title: t('catalog.confirmDelete.title', { name: row.name }),
      content: t(kind === 'dramas' ? 'catalog.confirmDelete.bodyDrama' : 'catalog.confirmDelete.bodyProduct', { id: row.external_id }),
      okText: tc('actions.delete'),
      danger: true,
      action: async () => {
        await (kind === 'dramas' ? deleteDrama : deleteProduct).mutateAsync(row.id);
        message.success(t('catalog.deleted'));
      },
    });

  const handleExport = () => {
    const body = kind === 'dramas' ? dramasBody(query, site.id) : productsBody(query, site.id);
    const { page: _page, page_size: _size, ...rest } = body;
    exportCatalog.mutate({ body: rest, filename: t(kind === 'dramas' ? 'catalog.exportDramas' : 'catalog.exportProducts', { site: site.name }) });
  };

  const empty = (
    <ListEmpty
      query={list}
      filtered={hasFilters}
      emptyText={t(kind === 'dramas' ? 'catalog.emptyDramas' : 'catalog.emptyProducts')}
      emptyAction={
        <Flex gap={8} justify="center">
          <Button type="primary" icon={<PlusOutlined />} onClick={handleCreate}>
            {t(kind === 'dramas' ? 'catalog.createDrama' : 'catalog.createProduct')}
          </Button>
          <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
            {t('catalog.import.open')}
          </Button>
        </Flex>
      }
    />
  );

  return (
    <Card
      size="small"
      title={t(kind === 'dramas' ? 'catalog.titleDramas' : 'catalog.titleProducts', { count: site.catalog_count })}
      extra={
        <Flex gap={8} wrap>
          <Button size="small" icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
            {t('catalog.import.open')}
          </Button>
          <Button size="small" icon={<DownloadOutlined />} loading={exportCatalog.isPending} onClick={handleExport}>
            {t('catalog.export')}
          </Button>
          <Button size="small" type="primary" icon={<PlusOutlined />} onClick={handleCreate}>
            {t(kind === 'dramas' ? 'catalog.createDrama' : 'catalog.createProduct')}
          </Button>
        </Flex>
      }
      styles={{ body: { padding: 0 } }}
    >
      <div style={{ padding: 12 }}>
        <CatalogFilters
          kind={kind}
          value={filters}
          onChange={(next) => onQueryChange({ site: query.site, ...next, page: 1, page_size: query.page_size, sort_field: query.sort_field, sort_order: query.sort_order })}
        />
      </div>
      {kind === 'dramas' ? (
        <DramaTable query={query} data={dramas.data} loading={dramas.isFetching} empty={empty} onQueryChange={onQueryChange} onEdit={setDramaTarget} onDelete={handleDelete} />
      ) : (
        <ProductTable query={query} data={products.data} loading={products.isFetching} empty={empty} onQueryChange={onQueryChange} onEdit={setProductTarget} onDelete={handleDelete} />
      )}
      <DramaFormModal siteId={site.id} target={dramaTarget} onClose={() => setDramaTarget(null)} />
      <ProductFormModal siteId={site.id} target={productTarget} onClose={() => setProductTarget(null)} />
      <ImportCatalogModal kind={kind} site={site} open={importOpen} onClose={() => setImportOpen(false)} />
    </Card>
  );
}
