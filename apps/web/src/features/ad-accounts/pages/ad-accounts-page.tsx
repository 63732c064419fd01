import { AppstoreOutlined, CloudServerOutlined, TeamOutlined } from '@ant-design/icons';
import { AD_ACCOUNT_EXPORT_COLUMNS, endpoints, type AdAccount } from '@ads/contracts';
import { App, Button, Card } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConnectFirstButton } from '@/components/connect-first-button';
import { ColumnChooser, ExportButton, exportBody, SelectionBar, shownColumnKeys, useColumnPrefs, useListQuery, useRowSelection } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { usePersonalAccountOptions } from '@/lib/lookups/use-personal-account-options';
import { canAssignToUsers, canCall, useViewer } from '@/lib/permissions';
import '@/locales/assets-namespace';
import { adAccountsQuerySchema, useAdAccounts } from '../api/use-ad-accounts';
import { useExportAdAccounts } from '../api/use-export-ad-accounts';
import { useSetAdAccountHosted } from '../api/use-set-ad-account-hosted';
import { adAccountColumns, DEFAULT_HIDDEN_COLUMNS } from '../components/ad-account-columns';
import { AdAccountFilters } from '../components/ad-account-filters';
import { AdAccountTable } from '../components/ad-account-table';
import { AssignUsersModal } from '../components/assign-users-modal';
import { RemarkModal } from '../components/remark-modal';
import { SetPlatformModal } from '../components/set-platform-modal';

const FILTER_KEYS = ['keyword', 'account_status', 'platform', 'currency', 'user_id', 'unassigned', 'personal_account_id', 'hosted'] as const;
const accountId = (a: AdAccount) => a.id;

/** /auth/account 广告账户: every ad account the viewer can see, its money, who reaches it and who uses it. */
export default function AdAccountsPage() {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const title = useRouteTitle('/auth/account');
  const viewer = useViewer();
  const list = useListQuery(adAccountsQuerySchema, { filterKeys: FILTER_KEYS });
  const accounts = useAdAccounts(list.query);
  const canListPersonal = canCall(viewer, endpoints.personalAccounts.list);
  const personalAccounts = usePersonalAccountOptions({ enabled: canListPersonal });
  const exportAccounts = useExportAdAccounts();
  const setHosted = useSetAdAccountHosted();
  const columnPrefs = useColumnPrefs('/auth/account', DEFAULT_HIDDEN_COLUMNS);
  const selection = useRowSelection<AdAccount>(accountId);

  const [assignTarget, setAssignTarget] = useState<AdAccount[] | null>(null);
  const [platformTarget, setPlatformTarget] = useState<AdAccount[] | null>(null);
  const [remarkTarget, setRemarkTarget] = useState<AdAccount | null>(null);

  const handleHosted = async (hosted: boolean) => {
    try {
      const { updated } = await setHosted.mutateAsync({ ad_account_ids: selection.keys, hosted });
      message.success(t(hosted ? 'adAccounts.hostedOn' : 'adAccounts.hostedOff', { count: updated }));
      selection.clear();
    } catch {
      // Shown by the request layer.
    }
  };

  const choosable = useMemo(() => adAccountColumns({ t, tc }), [t, tc]);

  return (
    <PageShell
      title={title}
      extra={
        <>
          <ColumnChooser columns={choosable} prefs={columnPrefs} />
          <ExportButton exporter={exportAccounts} body={{ ...exportBody(list.query), columns: shownColumnKeys(choosable, columnPrefs.hidden, AD_ACCOUNT_EXPORT_COLUMNS) }}
            filename={t('adAccounts.exportFile')}>
            {t('adAccounts.export')}
          </ExportButton>
        </>
      }
    >
      <Card size="small">
        <AdAccountFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} personalAccounts={canListPersonal ? (personalAccounts.data ?? []) : null} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <SelectionBar count={selection.count} onClear={selection.clear}>
          {canAssignToUsers(viewer) && (
            <Button size="small" type="primary" icon={<TeamOutlined />} onClick={() => setAssignTarget(selection.rows)}>
              {t('adAccounts.assignUsers')}
            </Button>
          )}
          <Button size="small" icon={<AppstoreOutlined />} onClick={() => setPlatformTarget(selection.rows)}>
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
          list={list}
          result={accounts}
          hidden={columnPrefs.hidden}
          empty={{
            text: t('adAccounts.empty'),
            action: <ConnectFirstButton />,
            outsideScope: (count) => t('outsideScope.adAccounts', { count }),
          }}
          selection={selection}
          onEditRemark={setRemarkTarget}
        />
      </Card>

      <AssignUsersModal
        accounts={assignTarget}
        viewer={viewer}
        onClose={() => setAssignTarget(null)}
        onSaved={() => {
          setAssignTarget(null);
          selection.clear();
        }}
      />
      <SetPlatformModal
        accounts={platformTarget}
        onClose={() => setPlatformTarget(null)}
        onSaved={() => {
          setPlatformTarget(null);
          selection.clear();
        }}
      />
      <RemarkModal account={remarkTarget} onClose={() => setRemarkTarget(null)} />
    </PageShell>
  );
}
