import { CloudServerOutlined, DisconnectOutlined } from '@ant-design/icons';
import type { AdAccount } from '@ads/contracts';
import { App, Button, Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { SelectionBar, useListQuery, useRowSelection } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import '@/locales/hosting-namespace';
import { hostingBody, hostingQuerySchema, useHostingAccounts } from '../api/use-hosting-accounts';
import { useSetHosting } from '../api/use-set-hosting';
import { HostingExplainer } from '../components/hosting-explainer';
import { HostingFilters } from '../components/hosting-filters';
import { HostingTable } from '../components/hosting-table';

const MAX_NAMES = 10;
const accountId = (a: AdAccount) => a.id;

/**
 * /operation/account 广告托管: which ad accounts are under hosting, which can join, and what
 * hosting means today (no rule runs yet; nothing changes on the platform).
 */
export default function HostingPage() {
  const { t } = useTranslation('hosting');
  const { modal, message } = App.useApp();
  const title = useRouteTitle('/operation/account');
  const list = useListQuery(hostingQuerySchema, { filterKeys: ['keyword', 'platform', 'account_status'] });
  const { query } = list;
  const hostedTab = query.tab === 'hosted';
  const accounts = useHostingAccounts(hostingBody(query, hostedTab));
  // The other side's size, for its tab label and the numbers panel (same filters, one row).
  const other = useHostingAccounts(hostingBody({ ...query, page: 1, page_size: 1, sort_field: undefined, sort_order: undefined }, !hostedTab));
  const setHosting = useSetHosting();
  const selection = useRowSelection<AdAccount>(accountId);

  const hostedCount = hostedTab ? accounts.data?.total : other.data?.total;
  const availableCount = hostedTab ? other.data?.total : accounts.data?.total;

  const switchTab = (tab: string) => {
    selection.clear();
    list.patch({ tab: tab === 'available' ? 'available' : 'hosted', page: 1 });
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
        selection.clear();
      },
    });
  };

  const table = (hosted: boolean) => (
    <>
      <SelectionBar count={selection.count} onClear={selection.clear}>
        <Button
          size="small"
          type={hosted ? 'default' : 'primary'}
          danger={hosted}
          icon={hosted ? <DisconnectOutlined /> : <CloudServerOutlined />}
          onClick={() => confirmChange(selection.rows)}
        >
          {hosted ? t('removeSelected') : t('addSelected')}
        </Button>
      </SelectionBar>
      <HostingTable
        hosted={hosted}
        list={list}
        result={accounts}
        empty={{
          text: hosted ? t('emptyHosted') : t('emptyAvailable'),
          outsideScope: (count) => t(hosted ? 'outsideHosted' : 'outsideAvailable', { count }),
          action:
            hosted && (availableCount ?? 0) > 0 ? (
              <Button type="primary" icon={<CloudServerOutlined />} onClick={() => switchTab('available')}>
                {t('pickAccounts')}
              </Button>
            ) : undefined,
        }}
        selection={selection}
        onToggle={(a) => confirmChange([a])}
      />
    </>
  );

  const count = (n: number | undefined) => (n === undefined ? '' : ` (${n})`);

  return (
    <PageShell title={title}>
      <HostingExplainer hostedCount={hostedCount} availableCount={availableCount} />
      <Card size="small">
        <HostingFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} />
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
