import { CheckCircleOutlined, DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { CATALOG_FILE_PATTERN, DRAMA_COLUMNS, PRODUCT_COLUMNS, type ImportCatalogResult } from '@ads/contracts';
import { Alert, App, Button, Flex, Modal, Spin, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '@/lib/api-client';
import { readFileAsBase64 } from '@/lib/read-file';
import { useImportCatalog, type CatalogKind } from '../api/use-import-catalog';

/** The import body's limit is 14,000,000 base64 characters: about 10 MB of file. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The header row of each catalog file (api-assets.md "Catalog files"). */
export const CATALOG_COLUMNS: Record<CatalogKind, readonly string[]> = {
  dramas: DRAMA_COLUMNS.map((c) => c.key),
  products: PRODUCT_COLUMNS.map((c) => c.key),
};

/** A CSV with the header row and one example, for people to fill in (with a BOM so Excel reads UTF-8). */
function downloadTemplate(kind: CatalogKind, filename: string) {
  const example =
    kind === 'dramas'
      ? ['10086', 'The Billionaire Returns', 'en', '80', 'https://cdn.example.com/covers/10086.jpg', 'romance;revenge', 'untested']
      : ['SKU-2088', 'Linen shirt', 'https://shop.example.com/p/2088', '29.90', 'USD', 'https://cdn.example.com/p/2088.jpg', 'summer;men'];
  const csv = `\uFEFF${CATALOG_COLUMNS[kind].join(',')}\n${example.map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')}\n`;
  saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), filename);
}

interface Checked {
  filename: string;
  content: string;
  result: ImportCatalogResult;
}

interface Props {
  kind: CatalogKind;
  site: { id: number; name: string } | null;
  open: boolean;
  onClose: () => void;
}

/**
 * Import a catalog from .csv or .xlsx: the file is checked first (dry run) and either its row
 * errors are listed, or what it will create and update is shown with a button to apply it.
 */
export function ImportCatalogModal({ kind, site, open, onClose }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const importCatalog = useImportCatalog(kind);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  // Every opening starts from "choose a file".
  const close = () => {
    setChecked(null);
    setFileError(null);
    onClose();
  };

  const handleFile = async (file: File) => {
    setChecked(null);
    setFileError(null);
    if (!CATALOG_FILE_PATTERN.test(file.name)) return setFileError(t('catalog.import.badType'));
    if (file.size > MAX_FILE_BYTES) return setFileError(t('catalog.import.tooBig', { mb: MAX_FILE_BYTES / 1024 / 1024 }));
    if (!site) return;
    setChecking(true);
    try {
      const content = await readFileAsBase64(file);
      const result = await importCatalog.mutateAsync({ site_id: site.id, filename: file.name, content_base64: content, dry_run: true });
      setChecked({ filename: file.name, content, result });
    } catch {
      // A refusal is shown by the request layer; the user can pick another file.
    } finally {
      setChecking(false);
    }
  };

  const handleApply = async () => {
    if (!checked || !site) return;
    try {
      const result = await importCatalog.mutateAsync({ site_id: site.id, filename: checked.filename, content_base64: checked.content });
      if (result.errors.length) {
        // The data changed since the check: show the new errors instead.
        setChecked({ ...checked, result });
        return;
      }
      message.success(t('catalog.import.done', { created: result.created, updated: result.updated }));
      close();
    } catch {
      // Shown by the request layer.
    }
  };

  const errors = checked?.result.errors ?? [];
  const ready = checked !== null && errors.length === 0;
  const nothing = ready && checked.result.created + checked.result.updated === 0;

  return (
    <Modal
      open={open}
      title={t(kind === 'dramas' ? 'catalog.import.titleDramas' : 'catalog.import.titleProducts', { site: site?.name ?? '' })}
      onCancel={close}
      width={720}
      destroyOnHidden
      footer={
        <Flex justify="space-between">
          <Button icon={<DownloadOutlined />} onClick={() => downloadTemplate(kind, t(kind === 'dramas' ? 'catalog.import.templateDramas' : 'catalog.import.templateProducts'))}>
            {t('catalog.import.template')}
          </Button>
          <Flex gap={8}>
            <Button onClick={close}>{tc('actions.cancel')}</Button>
            <Button type="primary" disabled={!ready || nothing} loading={importCatalog.isPending && !checking} onClick={() => void handleApply()}>
              {t('catalog.import.apply')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <Flex vertical gap={12} style={{ marginTop: 12 }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('catalog.import.help')}{' '}
          {CATALOG_COLUMNS[kind].map((c) => (
            <Typography.Text key={c} code style={{ whiteSpace: 'nowrap' }}>
              {c}
            </Typography.Text>
          ))}
          {' · '}
          {t(kind === 'dramas' ? 'catalog.import.helpZhDramas' : 'catalog.import.helpZhProducts')}
        </Typography.Paragraph>
        <Spin spinning={checking} description={t('catalog.import.checking')}>
          <Upload.Dragger
            accept=".csv,.xlsx"
            multiple={false}
            showUploadList={false}
            beforeUpload={(file) => {
              void handleFile(file);
              return false;
            }}
            data-testid="catalog-file"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{checked ? t('catalog.import.chosen', { name: checked.filename }) : t('catalog.import.drop')}</p>
            <p className="ant-upload-hint">{t('catalog.import.hint')}</p>
          </Upload.Dragger>
        </Spin>
        {fileError && <Alert type="error" showIcon title={fileError} />}
        {checked && errors.length > 0 && (
          <>
            <Alert type="error" showIcon title={t('catalog.import.hasErrors', { count: errors.length })} description={t('catalog.import.nothingWritten')} />
            <Table
              size="small"
              rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
              dataSource={errors}
              pagination={errors.length > 8 ? { pageSize: 8, size: 'small' } : false}
              data-testid="import-errors"
              columns={[
                { key: 'row', title: t('catalog.import.row'), dataIndex: 'row', width: 80 },
                { key: 'field', title: t('catalog.import.field'), dataIndex: 'field', width: 140, render: (f: string) => <Typography.Text code>{f}</Typography.Text> },
                { key: 'message', title: t('catalog.import.message'), dataIndex: 'message' },
              ]}
            />
          </>
        )}
        {ready && (
          <Alert
            type={nothing ? 'info' : 'success'}
            showIcon
            icon={<CheckCircleOutlined />}
            title={nothing ? t('catalog.import.nothing') : t('catalog.import.ready', { created: checked.result.created, updated: checked.result.updated })}
            description={nothing ? undefined : t('catalog.import.readyHelp')}
            data-testid="import-ready"
          />
        )}
      </Flex>
    </Modal>
  );
}
