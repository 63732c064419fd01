import { LinkOutlined } from '@ant-design/icons';
import { endpoints, type Page } from '@ads/contracts';
import { Button, Card } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AssociateModal } from '@/components/associate-modal';
import { ConnectFirstButton } from '@/components/connect-first-button';
import { ListEmpty } from '@/components/list-empty';
import { PageShell } from '@/components/page-shell';
import { SelectionBar } from '@/components/selection-bar';
import { useRouteTitle } from '@/components/use-route-title';
import { usePersonalAccountOptions } from '@/lib/lookups/use-personal-account-options';
import { assignableDepartmentId, canAssignToUsers, canCall, useViewer } from '@/lib/permissions';
import { useUrlQuery } from '@/lib/use-url-query';
import '@/locales/assets-namespace';
import { useAssociatePages } from '../api/use-associate-pages';
import { pagesQuerySchema, usePages, type PagesQuery } from '../api/use-pages';
import { PageFilters, type PageFilterValues } from '../components/page-filters';
import { PageTable } from '../components/page-table';

const FILTER_KEYS = ['keyword', 'ad_account_id', 'user_id', 'personal_account_id'] as const;

/** /auth/homepage 主页关联: Facebook pages and which ad accounts and users may use them. */
export default function PagesPage() {
  const { t } = useTranslation('assets');
  const title = useRouteTitle('/auth/homepage');
  const viewer = useViewer();
  const [query, setQuery] = useUrlQuery(pagesQuerySchema);
  const pages = usePages(query);
  const canPickAdAccounts = canCall(viewer, endpoints.adAccounts.list);
  const canListPersonal = canCall(viewer, endpoints.personalAccounts.list);
  const personalAccounts = usePersonalAccountOptions({ enabled: canListPersonal });
  const associate = useAssociatePages();
  const [selected, setSelected] = useState<Map<number, Page>>(new Map());
  const [target, setTarget] = useState<Page[] | null>(null);

  const filters = useMemo(() => {
    const f: PageFilterValues = {};
    for (const k of FILTER_KEYS) if (query[k] !== undefined) Object.assign(f, { [k]: query[k] });
    return f;
  }, [query]);
  const hasFilters = Object.keys(filters).length > 0;

  const total = pages.data?.total;
  const lastPage = total === undefined ? query.page : Math.max(1, Math.ceil(total / query.page_size));
  useEffect(() => {
    if (!pages.isPlaceholderData && query.page > lastPage) setQuery({ ...query, page: lastPage }, { replace: true });
  }, [pages.isPlaceholderData, query, lastPage, setQuery]);

  const handleFilters = (next: PageFilterValues) =>
    setQuery({ ...next, page: 1, page_size: query.page_size, sort_field: query.sort_field, sort_order: query.sort_order } satisfies PagesQuery);

  const withUsers = canAssignToUsers(viewer);
  const canAssociate = canPickAdAccounts || withUsers;

  return (
    <PageShell title={title}>
      <Card size="small">
        <PageFilters value={filters} onChange={handleFilters} canPickAdAccounts={canPickAdAccounts} personalAccounts={canListPersonal ? (personalAccounts.data ?? []) : null} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <SelectionBar count={selected.size} onClear={() => setSelected(new Map())}>
          {canAssociate && (
            <Button size="small" type="primary" icon={<LinkOutlined />} onClick={() => setTarget([...selected.values()])}>
              {t('pages.associate')}
            </Button>
          )}
        </SelectionBar>
        <PageTable
          query={query}
          data={pages.data}
          loading={pages.isFetching}
          empty={<ListEmpty query={pages} filtered={hasFilters} emptyText={pages.data?.outside_scope ? t('outsideScope.pages', { count: pages.data.outside_scope }) : t('pages.empty')} emptyAction={<ConnectFirstButton />} />}
          selectedIds={[...selected.keys()]}
          onSelect={(ids, rows) => setSelected((prev) => new Map(ids.map((id) => [id, rows.find((r) => r?.id === id) ?? prev.get(id)!] as const).filter(([, p]) => p)))}
          onQueryChange={setQuery}
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
          if ((target?.length ?? 0) > 1) setSelected(new Map());
          return updated;
        }}
        onClose={() => setTarget(null)}
      />
    </PageShell>
  );
}
