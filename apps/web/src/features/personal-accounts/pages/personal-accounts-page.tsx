import { FacebookOutlined, HistoryOutlined, KeyOutlined, SyncOutlined, UserSwitchOutlined } from '@ant-design/icons';
import type { PersonalAccount, Task } from '@ads/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectionBar, useListQuery, useRowSelection } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { TaskProgress } from '@/components/task-progress';
import { TasksDrawer } from '@/components/tasks-drawer';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import { navigateAway } from '@/lib/navigate-away';
import { canAssignToUsers, useViewer } from '@/lib/permissions';
import { syncedAssetKeys } from '@/lib/query-keys';
import '@/locales/assets-namespace';
import { useCheckToken } from '../api/use-check-token';
import { useDisconnect } from '../api/use-disconnect';
import { useOauthStart } from '../api/use-oauth-start';
import { personalAccountsQuerySchema, usePersonalAccounts } from '../api/use-personal-accounts';
import { useSetPersonalHosted } from '../api/use-set-personal-hosted';
import { useSyncPersonalAccounts } from '../api/use-sync-personal-accounts';
import { ConnectPanel } from '../components/connect-panel';
import { ConnectTokenModal } from '../components/connect-token-modal';
import { PersonalAccountFilters } from '../components/personal-account-filters';
import { PersonalAccountTable } from '../components/personal-account-table';
import { SetOwnerModal } from '../components/set-owner-modal';
import { useOauthReturn } from '../components/use-oauth-return';

const FILTER_KEYS = ['keyword', 'status', 'owner_user_id', 'hosted'] as const;
const personalId = (a: PersonalAccount) => a.id;

interface RunningSync {
  taskId: number;
  ids: number[];
  finished?: boolean;
}

/**
 * 个号管理 (/auth/personage, mode "manage") and 个号授权 (/operation/auth, mode "connect"): one
 * screen. "connect" leads with how to connect (OAuth, token paste, the scopes needed) above the
 * same list; "manage" leads with the list and keeps connecting in the header.
 */
export function PersonalAccountsScreen({ mode }: { mode: 'manage' | 'connect' }) {
  const { t } = useTranslation('assets');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const title = useRouteTitle(mode === 'manage' ? '/auth/personage' : '/operation/auth');
  const viewer = useViewer();
  const list = useListQuery(personalAccountsQuerySchema, { filterKeys: FILTER_KEYS });
  const accounts = usePersonalAccounts(list.query);
  const oauthStart = useOauthStart();
  const checkToken = useCheckToken();
  const sync = useSyncPersonalAccounts();
  const setHosted = useSetPersonalHosted();
  const disconnect = useDisconnect();

  const selection = useRowSelection<PersonalAccount>(personalId);
  const [tokenOpen, setTokenOpen] = useState(false);
  const [ownerTarget, setOwnerTarget] = useState<PersonalAccount[] | null>(null);
  const [tasksOpen, setTasksOpen] = useState(false);
  const [running, setRunning] = useState<RunningSync[]>([]);

  const noAccountsYet = !list.hasFilters && accounts.data?.total === 0 && !accounts.isPlaceholderData;

  useOauthReturn(
    useCallback(() => {
      void Promise.all(syncedAssetKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    }, [queryClient]),
  );

  const handleOauth = async () => {
    try {
      const { url } = await oauthStart.mutateAsync();
      navigateAway(url);
    } catch {
      // The request layer has said why.
    }
  };

  const handleSync = async (ids: number[]) => {
    try {
      const { task_id } = await sync.mutateAsync(ids);
      setRunning((prev) => [...prev.filter((r) => r.taskId !== task_id), { taskId: task_id, ids }]);
    } catch {
      // Shown by the request layer.
    }
  };

  const handleTaskFinished = useCallback(
    (task: Task) => {
      setRunning((prev) => prev.map((r) => (r.taskId === task.id ? { ...r, finished: true } : r)));
      void Promise.all(syncedAssetKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (task.status === 'success') message.success(t('personal.syncDone'));
    },
    [queryClient, message, t],
  );

  const handleCheck = async (a: PersonalAccount) => {
    try {
      const next = await checkToken.mutateAsync(a.id);
      if (next.status === 'valid') message.success(t('personal.checkResult.valid', { name: next.name }));
      else if (next.status === 'expiring') message.warning(t('personal.checkResult.expiring', { name: next.name }));
      else message.error(t('personal.checkResult.invalid', { name: next.name, reason: next.status_reason ?? '' }));
    } catch {
      // Shown by the request layer.
    }
  };

  const handleSetHosted = async (ids: number[], hosted: boolean) => {
    try {
      const { updated } = await setHosted.mutateAsync({ ids, hosted });
      message.success(t(hosted ? 'personal.hostedOn' : 'personal.hostedOff', { count: updated }));
    } catch {
      // Shown by the request layer.
    }
  };

  const handleDisconnect = (a: PersonalAccount) =>
    confirmAction(modal, {
      title: t('personal.confirmDisconnect.title', { name: a.name }),
      content: t('personal.confirmDisconnect.body', { count: a.ad_account_count }),
      okText: t('personal.confirmDisconnect.ok'),
      danger: true,
      action: async () => {
        await disconnect.mutateAsync(a.id);
        selection.set(selection.rows.filter((r) => r.id !== a.id));
        message.success(t('personal.disconnected', { name: a.name }));
      },
    });

  const syncingIds = useMemo(() => new Set(running.flatMap((r) => (r.finished ? [] : r.ids))), [running]);
  const connectButtons = (
    <>
      <Button icon={<KeyOutlined />} onClick={() => setTokenOpen(true)}>
        {t('personal.connect.paste')}
      </Button>
      <Button type="primary" icon={<FacebookOutlined />} loading={oauthStart.isPending} onClick={() => void handleOauth()}>
        {t('personal.connect.oauth')}
      </Button>
    </>
  );

  return (
    <PageShell
      title={title}
      extra={
        <>
          <Button icon={<HistoryOutlined />} onClick={() => setTasksOpen(true)}>
            {t('tasks.title')}
          </Button>
          {mode === 'manage' && !noAccountsYet && connectButtons}
        </>
      }
    >
      {(mode === 'connect' || noAccountsYet) && (
        <ConnectPanel onOauth={() => void handleOauth()} oauthLoading={oauthStart.isPending} onPasteToken={() => setTokenOpen(true)} />
      )}
      {running.map((r) => (
        <TaskProgress key={r.taskId} taskId={r.taskId} onFinished={handleTaskFinished} onClose={() => setRunning((prev) => prev.filter((x) => x.taskId !== r.taskId))} />
      ))}
      <Card size="small">
        <PersonalAccountFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <SelectionBar count={selection.count} onClear={selection.clear}>
          <Button size="small" icon={<SyncOutlined />} loading={sync.isPending} onClick={() => void handleSync(selection.keys)}>
            {t('personal.sync')}
          </Button>
          {canAssignToUsers(viewer) && (
            <Button size="small" icon={<UserSwitchOutlined />} onClick={() => setOwnerTarget(selection.rows)}>
              {t('personal.setOwner')}
            </Button>
          )}
          <Button size="small" onClick={() => void handleSetHosted(selection.keys, true)}>
            {t('common.hostOn')}
          </Button>
          <Button size="small" onClick={() => void handleSetHosted(selection.keys, false)}>
            {t('common.hostOff')}
          </Button>
        </SelectionBar>
        <PersonalAccountTable
          list={list}
          result={accounts}
          viewer={viewer}
          empty={{ text: t('personal.empty'), outsideScope: (count) => t('outsideScope.personal', { count }) }}
          selection={selection}
          checkingId={checkToken.isPending ? (checkToken.variables ?? null) : null}
          syncingIds={syncingIds}
          hostedPendingId={setHosted.isPending && setHosted.variables?.ids.length === 1 ? (setHosted.variables.ids[0] ?? null) : null}
          onCheck={(a) => void handleCheck(a)}
          onSync={(a) => void handleSync([a.id])}
          onReconnect={() => void handleOauth()}
          onSetOwner={(a) => setOwnerTarget([a])}
          onSetHosted={(a, on) => void handleSetHosted([a.id], on)}
          onDisconnect={handleDisconnect}
        />
      </Card>

      <ConnectTokenModal open={tokenOpen} viewer={viewer} onClose={() => setTokenOpen(false)} />
      {canAssignToUsers(viewer) && (
        <SetOwnerModal
          accounts={ownerTarget}
          viewer={viewer}
          onClose={() => setOwnerTarget(null)}
          onSaved={() => {
            setOwnerTarget(null);
            selection.clear();
          }}
        />
      )}
      <TasksDrawer open={tasksOpen} onClose={() => setTasksOpen(false)} />
    </PageShell>
  );
}

/** /auth/personage 个号管理. */
export default function PersonalAccountsPage() {
  return <PersonalAccountsScreen mode="manage" />;
}
