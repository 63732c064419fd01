import { AppstoreOutlined, CloudServerOutlined, DownloadOutlined, TeamOutlined } from '@ant-design/icons';
import { endpoints, type AdAccount } from '@ads/contracts';
import { App, Button, Card } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser } from '@/components/column-chooser';
import { ConnectFirstButton } from '@/components/connect-first-button';
import { ListEmpty } from '@/components/list-empty';
import { PageShell } from '@/components/page-shell';
import { SelectionBar } from '@/components/selection-bar';
import { useRouteTitle } from '@/components/use-route-title';
import { usePersonalAccountOptions } from '@/lib/lookups/use-personal-account-options';
import { canAssignToUsers, canCall, useViewer } from '@/lib/permissions';
import { useColumnPrefs } from '@/lib/use-column-prefs';
import { useUrlQuery } from '@/lib/use-url-query';
import '@/locales/assets-namespace';
import { adAccountsQuerySchema, useAdAccounts, type AdAccountsQuery } from '../api/use-ad-accounts';
import { useExportAdAccounts } from '../api/use-export-ad-accounts';
import { useSetAdAccountHosted } from '../api/use-set-ad-account-hosted';
import { adAccountColumns, DEFAULT_HIDDEN_COLUMNS, LOCKED_COLUMNS } from '../components/ad-account-columns';
import { AdAccountFilters, type AdAccountFilterValues } from '../components/ad-account-filters';
import { AdAccountTable } from '../components/ad-account-table';
import { AssignUsersModal } from '../components/assign-users-modal';
import { RemarkModal } from '../components/remark-modal';
import { SetPlatformModal } from '../components/set-platform-modal';
import { tableLoading } from '@/lib/table-loading';

const FILTER_KEYS = ['keyword', 'account_status', 'platform', 'currency', 'user_id', 'unassigned', 'personal_account_id', 'hosted'] as const;

/** /auth/account 广告账户: every ad account the viewer can see, its money, who reaches it and who uses it. */
export default function AdAccountsPage() {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const title = useRouteTitle('/auth/account');
  const viewer = useViewer();
  const [query, setQuery] = useUrlQuery(adAccountsQuerySchema);
  const accounts = useAdAccounts(query);
  const canListPersonal = canCall(viewer, endpoints.personalAccounts.list);
  const personalAccounts = usePersonalAccountOptions({ enabled: canListPersonal });
  const exportAccounts = useExportAdAccounts();
  const setHosted = useSetAdAccountHosted();
  const columnPrefs = useColumnPrefs('/auth/account', DEFAULT_HIDDEN_COLUMNS);

  const [selected, setSelected] = useState<Map<number, AdAccount>>(new Map());
  const [assignTarget, setAssignTarget] = useState<AdAccount[] | null>(null);
  const [platformTarget, setPlatformTarget] = useState<AdAccount[] | null>(null);
  const [remarkTarget, setRemarkTarget] = useState<AdAccount | null>(null);

  const filters = useMemo(() => {
    const f: AdAccountFilterValues = {};
    for (const k of FILTER_KEYS) if (query[k] !== undefined) Object.assign(f, { [k]: query[k] });
    return f;
  }, [query]);
  const hasFilters = Object.keys(filters).length > 0;

  const total = accounts.data?.total;
  const lastPage = total === undefined ? query.page : Math.max(1, Math.ceil(total / query.page_size));
  useEffect(() => {
    if (!accounts.isPlaceholderData && query.page > lastPage) setQuery({ ...query, page: lastPage }, { replace: true });
  }, [accounts.isPlaceholderData, query, lastPage, setQuery]);

  const handleFilters = (next: AdAccountFilterValues) =>
    setQuery({ ...next, page: 1, page_size: query.page_size, sort_field: query.sort_field, sort_order: query.sort_order } satisfies AdAccountsQuery);

  const handleExport = () => {
    const { page: _page, page_size: _size, ...body } = query;
    exportAccounts.mutate({ body, filename: t('adAccounts.exportFile') });
  };

  const selectedRows = [...selected.values()];
  const clearSelection = () => setSelected(new Map());

  const handleHosted = async (hosted: boolean) => {
    try {
      const { updated } = await setHosted.mutateAsync({ ad_account_ids: [...selected.keys()], hosted });
      message.success(t(hosted ? 'adAccounts.hostedOn' : 'adAccounts.hostedOff', { count: updated }));
      clearSelection();
    } catch {
      // Shown by the request layer.
    }
  };

  const choosable = useMemo(
    () => adAccountColumns({ t, tc, query }).map((c) => ({ key: String(c.key), title: c.title as string, locked: LOCKED_COLUMNS.has(String(c.key)) })),
    [t, tc, query],
  );

  return (
    <PageShell
      title={title}
      extra={
        <>
          <ColumnChooser columns={choosable} hidden={columnPrefs.hidden} onChange={columnPrefs.setHidden} onReset={columnPrefs.reset} />
          <Button icon={<DownloadOutlined />} loading={exportAccounts.isPending} onClick={handleExport}>
            {t('adAccounts.export')}
          </Button>
        </>
      }
    >
      <Card size="small">
        <AdAccountFilters value={filters} onChange={handleFilters} personalAccounts={canListPersonal ? (personalAccounts.data ?? []) : null} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <SelectionBar count={selected.size} onClear={clearSelection}>
          {canAssignToUsers(viewer) && (
            <Button size="small" type="primary" icon={<TeamOutlined />} onClick={() => setAssignTarget(selectedRows)}>
              {t('adAccounts.assignUsers')}
            </Button>
          )}
          <Button size="small" icon={<AppstoreOutlined />} onClick={() => setPlatformTarget(selectedRows)}>
            {t('adAccounts.setPlatform')}
          </Button>
          <Button size="small" icon={<CloudServerOutlined />} loading={setHosted.isPending && setHosted.variables?.hosted} onClick={() => void handleHosted(true)}>
            {t('common.hostOn')}
          </Button>
          <Button size="small" loading={setHosted.isPending && setHosted.variables?.hosted === false} onClick={() => void handleHosted(false)}>
            {t('common.hostOff')}
          </Button>
        </SelectionBar>
        <AdAccountTable
          query={query}
          data={accounts.data}
          loading={tableLoading(accounts)}
          hidden={columnPrefs.hidden}
          empty={<ListEmpty query={accounts} filtered={hasFilters} emptyText={accounts.data?.outside_scope ? t('outsideScope.adAccounts', { count: accounts.data.outside_scope }) : t('adAccounts.empty')} emptyAction={<ConnectFirstButton />} />}
          selectedIds={[...selected.keys()]}
          onSelect={(ids, rows) => setSelected((prev) => new Map(ids.map((id) => [id, rows.find((r) => r?.id === id) ?? prev.get(id)!] as const).filter(([, a]) => a)))}
          onQueryChange={setQuery}
          onEditRemark={setRemarkTarget}
        />
      </Card>

      <AssignUsersModal
        accounts={assignTarget}
        viewer={viewer}
        onClose={() => setAssignTarget(null)}
        onSaved={() => {
          setAssignTarget(null);
          clearSelection();
        }}
      />
      <SetPlatformModal
        accounts={platformTarget}
        onClose={() => setPlatformTarget(null)}
        onSaved={() => {
          setPlatformTarget(null);
          clearSelection();
        }}
      />
      <RemarkModal account={remarkTarget} onClose={() => setRemarkTarget(null)} />
    </PageShell>
  );
}
