import { LinkOutlined } from '@ant-design/icons';
import type { Pixel } from '@ads/contracts';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AssociateModal } from '@/components/associate-modal';
import { ConnectFirstButton } from '@/components/connect-first-button';
import { SelectionBar, useListQuery, useRowSelection } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { hasAnyPath, useViewer } from '@/lib/permissions';
import '@/locales/assets-namespace';
import { useAssociatePixels } from '../api/use-associate-pixels';
import { pixelsQuerySchema, usePixels } from '../api/use-pixels';
import { PixelFilters } from '../components/pixel-filters';
import { PixelTable } from '../components/pixel-table';

const AD_ACCOUNT_PATHS = ['/auth/account', '/operation/account'];
const FILTER_KEYS = ['keyword', 'ad_account_id'] as const;
const pixelId = (p: Pixel) => p.id;

/** /auth/pixel 像素管理: pixels, when they last fired, and the ad accounts they are shared with. */
export default function PixelsPage() {
  const { t } = useTranslation('assets');
  const title = useRouteTitle('/auth/pixel');
  const viewer = useViewer();
  const list = useListQuery(pixelsQuerySchema, { filterKeys: FILTER_KEYS });
  const pixels = usePixels(list.query);
  // Associating means picking ad accounts, which needs the ad-account list.
  const canAssociate = hasAnyPath(viewer, AD_ACCOUNT_PATHS);
  const associate = useAssociatePixels();
  const selection = useRowSelection<Pixel>(pixelId);
  const [target, setTarget] = useState<Pixel[] | null>(null);


  return (
    <PageShell title={title}>
      <Card size="small">
        <PixelFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} canPickAdAccounts={canAssociate} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <SelectionBar count={selection.count} onClear={selection.clear}>
          <Button size="small" type="primary" icon={<LinkOutlined />} onClick={() => setTarget(selection.rows)}>
            {t('pixels.associate')}
          </Button>
        </SelectionBar>
        <PixelTable
          list={list}
          result={pixels}
          empty={{ text: t('pixels.empty'), action: <ConnectFirstButton />, outsideScope: (count) => t('outsideScope.pixels', { count }) }}
          selection={selection}
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
          if ((target?.length ?? 0) > 1) selection.clear();
          return updated;
        }}
        onClose={() => setTarget(null)}
      />
    </PageShell>
  );
}
