import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { DRAMA_EXPORT_COLUMNS, PRODUCT_EXPORT_COLUMNS, type Drama, type Product, type Site } from '@ads/contracts';
import { App, Button, Card, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser, ExportButton, exportBody, shownColumnKeys, useColumnPrefs, type ListView } from '@/components/list-kit';
import { confirmAction } from '@/lib/confirm';
import { useDeleteDrama } from '../api/use-delete-drama';
import { useDeleteProduct } from '../api/use-delete-product';
import { useDramas } from '../api/use-dramas';
import { useExportCatalog } from '../api/use-export-catalog';
import { useProducts } from '../api/use-products';
import { CatalogFilters, type CatalogFilterValues } from './catalog-filters';
import { dramasBody, productsBody, type SitesScreenQuery } from './catalog-query';
import { DEFAULT_HIDDEN_CATALOG_COLUMNS, dramaColumns, DramaTable, productColumns, ProductTable } from './catalog-tables';
import { DramaFormModal } from './drama-form-modal';
import { ImportCatalogModal } from './import-catalog-modal';
import { ProductFormModal } from './product-form-modal';

interface Props {
  site: Site;
  /** The screen's list state (useListQuery over sitesScreenQuerySchema). */
  list: ListView<SitesScreenQuery> & { filters: CatalogFilterValues; setFilters: (next: CatalogFilterValues) => void; reset: () => void };
}

/** A site's catalog: dramas for a drama site (dj), products for a shop (ec); filters, CRUD, import, export. */
export function CatalogPanel({ site, list }: Props) {
  const { query } = list;
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const kind = site.platform === 'dj' ? 'dramas' : 'products';
  const dramas = useDramas(dramasBody(query, site.id), { enabled: kind === 'dramas' });
  const products = useProducts(productsBody(query, site.id), { enabled: kind === 'products' });
  const columnPrefs = useColumnPrefs(`/auth/site/${kind}`, DEFAULT_HIDDEN_CATALOG_COLUMNS);
  const deleteDrama = useDeleteDrama();
  const deleteProduct = useDeleteProduct();
  const exportCatalog = useExportCatalog(kind);
  const [dramaTarget, setDramaTarget] = useState<'create' | Drama | null>(null);
  const [productTarget, setProductTarget] = useState<'create' | Product | null>(null);
  const [importOpen, setImportOpen] = useState(false);

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


  const empty = {
    text: t(kind === 'dramas' ? 'catalog.emptyDramas' : 'catalog.emptyProducts'),
    action: (
      <Flex gap={8} justify="center">
        <Button type="primary" icon={<PlusOutlined />} onClick={handleCreate}>
          {t(kind === 'dramas' ? 'catalog.createDrama' : 'catalog.createProduct')}
        </Button>
        <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
          {t('catalog.import.open')}
        </Button>
      </Flex>
    ),
  };
  const choosable = kind === 'dramas' ? dramaColumns(t, tc, setDramaTarget, handleDelete) : productColumns(t, tc, setProductTarget, handleDelete);
  const exportBodyOf = () => ({
    ...exportBody(kind === 'dramas' ? dramasBody(query, site.id) : productsBody(query, site.id)),
    columns: shownColumnKeys(choosable, columnPrefs.hidden, kind === 'dramas' ? DRAMA_EXPORT_COLUMNS : PRODUCT_EXPORT_COLUMNS),
  });

  return (
    <Card
      size="small"
      title={t(kind === 'dramas' ? 'catalog.titleDramas' : 'catalog.titleProducts', { count: site.catalog_count })}
      extra={
        <Flex gap={8} wrap>
          <Button size="small" icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
            {t('catalog.import.open')}
          </Button>
          <ColumnChooser<Drama | Product> columns={choosable as never} prefs={columnPrefs} />
          <ExportButton
            exporter={exportCatalog}
            body={exportBodyOf()}
            filename={t(kind === 'dramas' ? 'catalog.exportDramas' : 'catalog.exportProducts', { site: site.name })}
          >
            {t('catalog.export')}
          </ExportButton>
          <Button size="small" type="primary" icon={<PlusOutlined />} onClick={handleCreate}>
            {t(kind === 'dramas' ? 'catalog.createDrama' : 'catalog.createProduct')}
          </Button>
        </Flex>
      }
      styles={{ body: { padding: 0 } }}
    >
      <div style={{ padding: 12 }}>
        <CatalogFilters kind={kind} value={list.filters} onChange={list.setFilters} onReset={list.reset} />
      </div>
      {kind === 'dramas' ? (
        <DramaTable list={list} result={dramas} hidden={columnPrefs.hidden} empty={empty} onEdit={setDramaTarget} onDelete={handleDelete} />
      ) : (
        <ProductTable list={list} result={products} hidden={columnPrefs.hidden} empty={empty} onEdit={setProductTarget} onDelete={handleDelete} />
      )}
      <DramaFormModal siteId={site.id} target={dramaTarget} onClose={() => setDramaTarget(null)} />
      <ProductFormModal siteId={site.id} target={productTarget} onClose={() => setProductTarget(null)} />
      <ImportCatalogModal kind={kind} site={site} open={importOpen} onClose={() => setImportOpen(false)} />
    </Card>
  );
}
