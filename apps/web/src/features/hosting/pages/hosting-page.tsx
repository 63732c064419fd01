import { CloudServerOutlined, DisconnectOutlined } from '@ant-design/icons';
import type { AdAccount } from '@ads/contracts';
import { App, Button, Card, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '@/components/list-empty';
import { PageShell } from '@/components/page-shell';
import { SelectionBar } from '@/components/selection-bar';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import { useUrlQuery } from '@/lib/use-url-query';
import '@/locales/hosting-namespace';
import { hostingBody, hostingQuerySchema, useHostingAccounts, type HostingQuery } from '../api/use-hosting-accounts';
import { useSetHosting } from '../api/use-set-hosting';
import { HostingExplainer } from '../components/hosting-explainer';
import { HostingFilters, type HostingFilterValues } from '../components/hosting-filters';
import { HostingTable } from '../components/hosting-table';
import { tableLoading } from '@/lib/table-loading';

const MAX_NAMES = 10;

/**
 * /operation/account 广告托管: which ad accounts are under hosting, which can join, and what
 * hosting means today (no rule runs yet; nothing changes on the platform).
 */
export default function HostingPage() {
  const { t } = useTranslation('hosting');
  const { modal, message } = App.useApp();
  const title = useRouteTitle('/operation/account');
  const [query, setQuery] = useUrlQuery(hostingQuerySchema);
  const hostedTab = query.tab === 'hosted';
  const list = useHostingAccounts(hostingBody(query, hostedTab));
  // The other side's size, for its tab label and the numbers panel (same filters, one row).
  const other = useHostingAccounts(hostingBody({ ...query, page: 1, page_size: 1, sort_field: undefined, sort_order: undefined }, !hostedTab));
  const setHosting = useSetHosting();
  const [selected, setSelected] = useState<Map<number, AdAccount>>(new Map());

  const filters: HostingFilterValues = { keyword: query.keyword, platform: query.platform, account_status: query.account_status };
  const hasFilters = Object.values(filters).some((v) => v !== undefined);
  const hostedCount = hostedTab ? list.data?.total : other.data?.total;
  const availableCount = hostedTab ? other.data?.total : list.data?.total;

  const total = list.data?.total;
  const lastPage = total === undefined ? query.page : Math.max(1, Math.ceil(total / query.page_size));
  useEffect(() => {
    if (!list.isPlaceholderData && query.page > lastPage) setQuery({ ...query, page: lastPage }, { replace: true });
  }, [list.isPlaceholderData, query, lastPage, setQuery]);

  const switchTab = (tab: string) => {
    setSelected(new Map());
    setQuery({ ...query, tab: tab === 'available' ? 'available' : 'hosted', page: 1 });
  };

  const confirmChange = (accounts: AdAccount[]) => {
    const adding = !hostedTab;
    const names = accounts.slice(0, MAX_NAMES).map((a) => a.name).join('、') + (accounts.length > MAX_NAMES ? '…' : '');
    confirmAction(modal, {
      title: t(adding ? 'confirmAdd.title' : 'confirmRemove.title', { count: accounts.length }),
      content: (
        <>
          <p style={{ marginTop: 0 }}>{names}</p>
          <p style={{ marginBottom: 0 }}>{t(adding ? 'confirmAdd.body' : 'confirmRemove.body')}</p>
        </>
      ),
      okText: t(adding ? 'add' : 'remove'),
      danger: !adding,
      action: async () => {
        const { updated } = await setHosting.mutateAsync({ ad_account_ids: accounts.map((a) => a.id), hosted: adding });
        message.success(t(adding ? 'added' : 'removed', { count: updated }));
        setSelected(new Map());
      },
    });
  };

  const table = (hosted: boolean) => (
    <>
      <SelectionBar count={selected.size} onClear={() => setSelected(new Map())}>
        <Button
          size="small"
          type={hosted ? 'default' : 'primary'}
          danger={hosted}
          icon={hosted ? <DisconnectOutlined /> : <CloudServerOutlined />}
          onClick={() => confirmChange([...selected.values()])}
        >
          {hosted ? t('removeSelected') : t('addSelected')}
        </Button>
      </SelectionBar>
      <HostingTable
        hosted={hosted}
        query={query}
        data={list.data}
        loading={tableLoading(list)}
        empty={
          <ListEmpty
            query={list}
            filtered={hasFilters}
            emptyText={list.data?.outside_scope ? t(hosted ? 'outsideHosted' : 'outsideAvailable', { count: list.data.outside_scope }) : hosted ? t('emptyHosted') : t('emptyAvailable')}
            emptyAction={
              hosted && (availableCount ?? 0) > 0 ? (
                <Button type="primary" icon={<CloudServerOutlined />} onClick={() => switchTab('available')}>
                  {t('pickAccounts')}
                </Button>
              ) : undefined
            }
          />
        }
        selectedIds={[...selected.keys()]}
        onSelect={(ids, rows) => setSelected((prev) => new Map(ids.map((id) => [id, rows.find((r) => r?.id === id) ?? prev.get(id)!] as const).filter(([, a]) => a)))}
        onQueryChange={(next: HostingQuery) => setQuery(next)}
        onToggle={(a) => confirmChange([a])}
      />
    </>
  );

  const count = (n: number | undefined) => (n === undefined ? '' : ` (${n})`);

  return (
    <PageShell title={title}>
      <HostingExplainer hostedCount={hostedCount} availableCount={availableCount} />
      <Card size="small">
        <HostingFilters value={filters} onChange={(next) => setQuery({ ...next, tab: query.tab, page: 1, page_size: query.page_size, sort_field: query.sort_field, sort_order: query.sort_order })} />
      </Card>
      <Card size="small" styles={{ body: { paddingTop: 0 } }}>
        <Tabs
          activeKey={query.tab}
          onChange={switchTab}
          items={[
            { key: 'hosted', label: `${t('tabs.hosted')}${count(hostedCount)}`, children: hostedTab ? table(true) : null },
            { key: 'available', label: `${t('tabs.available')}${count(availableCount)}`, children: hostedTab ? null : table(false) },
          ]}
        />
      </Card>
    </PageShell>
  );
}
