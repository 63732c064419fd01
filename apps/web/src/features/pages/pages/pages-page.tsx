import { LinkOutlined } from '@ant-design/icons';
import type { Page } from '@ads/contracts';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AssociateModal } from '@/components/associate-modal';
import { ConnectFirstButton } from '@/components/connect-first-button';
import { SelectionBar, useListQuery, useRowSelection } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { usePersonalAccountOptions } from '@/lib/lookups/use-personal-account-options';
import { assignableDepartmentId, canAssignToUsers, hasAnyPath, useViewer } from '@/lib/permissions';
import '@/locales/assets-namespace';
import { useAssociatePages } from '../api/use-associate-pages';
import { pagesQuerySchema, usePages } from '../api/use-pages';
import { PageFilters } from '../components/page-filters';
import { PageTable } from '../components/page-table';

const FILTER_KEYS = ['keyword', 'ad_account_id', 'user_id', 'personal_account_id'] as const;
const AD_ACCOUNT_PATHS = ['/auth/account', '/operation/account'];
const PERSONAL_ACCOUNT_PATHS = ['/auth/personage', '/operation/auth'];
const pageId = (p: Page) => p.id;

/** /auth/homepage 主页关联: Facebook pages and which ad accounts and users may use them. */
export default function PagesPage() {
  const { t } = useTranslation('assets');
  const title = useRouteTitle('/auth/homepage');
  const viewer = useViewer();
  const list = useListQuery(pagesQuerySchema, { filterKeys: FILTER_KEYS });
  const pages = usePages(list.query);
  const canPickAdAccounts = hasAnyPath(viewer, AD_ACCOUNT_PATHS);
  const canListPersonal = hasAnyPath(viewer, PERSONAL_ACCOUNT_PATHS);
  const personalAccounts = usePersonalAccountOptions({ enabled: canListPersonal });
  const associate = useAssociatePages();
  const selection = useRowSelection<Page>(pageId);
  const [target, setTarget] = useState<Page[] | null>(null);


  const withUsers = canAssignToUsers(viewer);
  const canAssociate = canPickAdAccounts || withUsers;

  return (
    <PageShell title={title}>
      <Card size="small">
        <PageFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} canPickAdAccounts={canPickAdAccounts} personalAccounts={canListPersonal ? (personalAccounts.data ?? []) : null} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <SelectionBar count={selection.count} onClear={selection.clear}>
          {canAssociate && (
            <Button size="small" type="primary" icon={<LinkOutlined />} onClick={() => setTarget(selection.rows)}>
              {t('pages.associate')}
            </Button>
          )}
        </SelectionBar>
        <PageTable
          list={list}
          result={pages}
          empty={{ text: t('pages.empty'), action: <ConnectFirstButton />, outsideScope: (count) => t('outsideScope.pages', { count }) }}
          selection={selection}
          onAssociate={canAssociate ? (p) => setTarget([p]) : undefined}
        />
      </Card>
      <AssociateModal
        names={target?.map((p) => p.name) ?? null}
        title={t('pages.associateTitle')}
        noun={t('pages.noun')}
        withUsers={withUsers}
        canPickAdAccounts={canPickAdAccounts}
        userDepartmentId={assignableDepartmentId(viewer)}
        onSubmit={async (v) => {
          const { updated } = await associate.mutateAsync({ page_ids: (target ?? []).map((p) => p.id), ...v });
          if ((target?.length ?? 0) > 1) selection.clear();
          return updated;
        }}
        onClose={() => setTarget(null)}
      />
    </PageShell>
  );
}
