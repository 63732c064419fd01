import { CloudServerOutlined, DisconnectOutlined } from '@ant-design/icons';
import type { AdAccount } from '@ads/contracts';
import { App, Button, Card, Flex, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SelectionBar, useListQuery, useRowSelection } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import '@/locales/rules-namespace';
import { hostingBody, hostingQuerySchema, useHostingAccounts } from '../api/use-hosting-accounts';
import { useRules } from '../api/use-rules';
import { useSetHosting } from '../api/use-set-hosting';
import { HostingExplainer } from '../components/hosting-explainer';
import { HostingFilters } from '../components/hosting-filters';
import { HostingTable } from '../components/hosting-table';
import { ChannelsTab } from '../components/channels-tab';
import { HistoryTab } from '../components/history-tab';
import { RulesTab } from '../components/rules-tab';

const MAX_NAMES = 10;
const accountId = (a: AdAccount) => a.id;

const VIEWS = ['accounts', 'rules', 'history', 'channels'] as const;
type View = (typeof VIEWS)[number];

/**
 * /operation/account 广告托管: the hosted ad accounts, the rules that run on them, their history
 * and the notification channels, as tabs; the part shown is `view` in the URL.
 */
export default function HostingPage() {
  const { t } = useTranslation('rules');
  const title = useRouteTitle('/operation/account');
  const [params, setParams] = useSearchParams();
  const raw = params.get('view');
  const view: View = (VIEWS as readonly string[]).includes(raw ?? '') ? (raw as View) : 'accounts';
  // Each part owns the URL while shown: switching starts the other part afresh.
  const go = (next: View, extra: Record<string, string> = {}) => setParams(next === 'accounts' ? extra : { view: next, ...extra });
  return (
    <PageShell title={title}>
      <Tabs
        activeKey={view}
        onChange={(k) => go(k as View)}
        destroyOnHidden
        items={[
          { key: 'accounts', label: t('tabs.accounts'), children: view === 'accounts' ? <HostedAccounts /> : null },
          { key: 'rules', label: t('tabs.rules'), children: view === 'rules' ? <RulesTab onHistory={(id) => go('history', { rule_id: String(id) })} /> : null },
          { key: 'history', label: t('tabs.history'), children: view === 'history' ? <HistoryTab /> : null },
          { key: 'channels', label: t('tabs.channels'), children: view === 'channels' ? <ChannelsTab /> : null },
        ]}
      />
    </PageShell>
  );
}

/** 托管账户: which ad accounts are under hosting and which can join. */
function HostedAccounts() {
  const { t } = useTranslation('hosting');
  const { modal, message } = App.useApp();
  const list = useListQuery(hostingQuerySchema, { filterKeys: ['keyword', 'platform', 'account_status'] });
  const { query } = list;
  const hostedTab = query.tab === 'hosted';
  const accounts = useHostingAccounts(hostingBody(query, hostedTab));
  // The other side's size, for its tab label and the numbers panel (same filters, one row).
  const other = useHostingAccounts(hostingBody({ ...query, page: 1, page_size: 1, sort_field: undefined, sort_order: undefined }, !hostedTab));
  const setHosting = useSetHosting();
  const rulesOn = useRules({ page: 1, page_size: 1, status: 'on' });
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
    <Flex vertical gap={16}>
      <HostingExplainer hostedCount={hostedCount} availableCount={availableCount} rulesOn={rulesOn.data?.total} />
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
    </Flex>
  );
}
