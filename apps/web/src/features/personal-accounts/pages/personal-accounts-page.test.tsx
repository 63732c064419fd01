import dayjs from 'dayjs';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { navigateAway } from '@/lib/navigate-away';
import { buildPersonalAccount, buildTask, daysFromNow } from '@/testing/asset-factories';
import { assetsBackend, OAUTH_URL } from '@/testing/assets-backend';
import { findDialog, rowOf } from '@/testing/dom';
import { buildSimpleUser } from '@/testing/factories';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import OperationAuthPage from './operation-auth-page';
import PersonalAccountsPage from './personal-accounts-page';

vi.mock('@/lib/navigate-away', () => ({ navigateAway: vi.fn() }));

const alice = buildSimpleUser({ id: 31, account: 'alice', name: 'Alice' });
const bob = buildSimpleUser({ id: 32, account: 'bob', name: 'Bob' });

function setup({ url = '/auth/personage', connect = false, seed = {}, user = manager }: { url?: string; connect?: boolean; seed?: Parameters<typeof assetsBackend>[0]; user?: typeof manager } = {}) {
  const backend = assetsBackend({
    users: [alice, bob],
    personalAccounts: [
      buildPersonalAccount({
        id: 1,
        name: 'Zhang Wei',
        fb_user_id: '100001',
        status: 'expiring',
        status_reason: 'The token expires within 7 days',
        token_expires_at: daysFromNow(2.5),
        missing_scopes: ['pages_manage_ads'],
        scopes: ['ads_management', 'ads_read'],
        owner: { id: 31, name: 'Alice' },
        ad_account_count: 12,
        page_count: 3,
        pixel_count: 2,
        last_synced_at: daysFromNow(-0.1),
        last_sync_status: 'failed',
        last_sync_error: 'Rate limited by the platform',
      }),
      buildPersonalAccount({ id: 2, name: 'Li Na', fb_user_id: '100002', token_expires_at: daysFromNow(40), hosted: true }),
      buildPersonalAccount({ id: 3, name: 'Old Token', status: 'invalid', status_reason: 'The user changed their password', token_expires_at: daysFromNow(-3) }),
    ],
    taskPolls: 2,
    ...seed,
  });
  const api = mockApi(backend.handlers);
  const view = renderScreen(connect ? <OperationAuthPage /> : <PersonalAccountsPage />, { url, user });
  return { ...view, api, backend };
}

const filters = () => within(screen.getByRole('form', { name: 'filters' }));

describe('personal accounts page', { timeout: 60_000 }, () => {
  it('lists personal accounts with token health, expiry, missing scopes, owner, reach and last sync', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Personal accounts' })).toBeTruthy();
    await screen.findByText('Zhang Wei');
    const zhang = rowOf('Zhang Wei');
    expect(zhang.getByText('Expiring')).toBeTruthy();
    expect(zhang.getByText('The token expires within 7 days')).toBeTruthy();
    const expiry = zhang.getByTestId('token-expiry');
    expect(expiry.textContent).toBe('Expires in 3 days');
    // Within the warning week: in the danger colour.
    expect(expiry.className).toContain('danger');
    expect(within(zhang.getByTestId('missing-scopes')).getByText('pages_manage_ads')).toBeTruthy();
    expect(zhang.getByText('Alice')).toBeTruthy();
    expect(zhang.getByText('12')).toBeTruthy();
    expect(zhang.getByText('Failed')).toBeTruthy();
    expect(zhang.getByText('Rate limited by the platform')).toBeTruthy();

    const li = rowOf('Li Na');
    expect(li.getByText('Valid')).toBeTruthy();
    expect(li.getByTestId('token-expiry').className).not.toContain('danger');
    expect(li.getByText('All required permissions')).toBeTruthy();
    expect(li.getByText('Nobody')).toBeTruthy();

    const old = rowOf('Old Token');
    expect(old.getByText('Invalid')).toBeTruthy();
    expect(old.getByText(/^Expired on/)).toBeTruthy();
    expect(old.getByRole('button', { name: 'Reconnect' })).toBeTruthy();
    expect(api.lastBody('/personal-accounts/list')).toEqual({ page: 1, page_size: 20 });
  });

  it('sends the filters and keeps them in the URL', async () => {
    const { api, user, router } = setup();
    await screen.findByText('Zhang Wei');
    await user.type(filters().getByLabelText('Keyword'), 'Li{Enter}');
    await waitFor(() => expect(api.lastBody('/personal-accounts/list')).toEqual({ page: 1, page_size: 20, keyword: 'Li' }));
    await user.click(filters().getByLabelText('Token'));
    await user.click(await screen.findByTitle('Valid'));
    await waitFor(() => expect(api.lastBody('/personal-accounts/list')).toEqual({ page: 1, page_size: 20, keyword: 'Li', status: 'valid' }));
    await user.click(filters().getByLabelText('Hosting'));
    await user.click(await screen.findByTitle('Hosted'));
    await waitFor(() => expect(api.lastBody('/personal-accounts/list')).toEqual({ page: 1, page_size: 20, keyword: 'Li', status: 'valid', hosted: true }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ keyword: 'Li', status: 'valid', hosted: 'true' });
    await waitFor(() => expect(screen.queryByText('Zhang Wei')).toBeNull());
  });

  it('starts the OAuth flow and sends the browser to the dialog URL it gets', async () => {
    const { api, user } = setup();
    await screen.findByText('Zhang Wei');
    await user.click(screen.getByRole('button', { name: /Connect a new account/ }));
    await waitFor(() => expect(navigateAway).toHaveBeenCalledWith(OAUTH_URL));
    expect(api.lastBody('/personal-accounts/oauth_start')).toEqual({});
  });

  it('says how the OAuth return went, then takes the parameters out of the URL', async () => {
    const { router } = setup({ url: '/operation/auth?connected=2', connect: true });
    expect(await screen.findByText(/Personal account connected/)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('shows an OAuth error from the callback', async () => {
    const { router } = setup({ url: '/operation/auth?error=The%20user%20denied%20access', connect: true });
    expect(await screen.findByText('The authorization did not complete')).toBeTruthy();
    expect(screen.getByText('The user denied access')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('checks a pasted token before sending it, then connects', async () => {
    const { api, user } = setup();
    await screen.findByText('Zhang Wei');
    await user.click(screen.getByRole('button', { name: /Paste a token/ }));
    const modal = await findDialog('Connect with an access token');
    const ok = modal.getByRole('button', { name: /Check and connect/ });
    await user.click(ok);
    expect(await modal.findByText('Paste an access token')).toBeTruthy();
    const token = modal.getByLabelText('Access token');
    await user.type(token, 'EAAB abc');
    expect(await modal.findByText('A token has no spaces or line breaks')).toBeTruthy();
    await user.clear(token);
    await user.type(token, 'EAABshort');
    expect(await modal.findByText('A token is 20–1000 characters long')).toBeTruthy();
    expect(api.count('/personal-accounts/connect_token')).toBe(0);

    await user.clear(token);
    await user.type(token, '  EAABwxyz1234567890abcdefgh  ');
    await user.click(ok);
    await waitFor(() => expect(api.lastBody('/personal-accounts/connect_token')).toEqual({ access_token: 'EAABwxyz1234567890abcdefgh' }));
    expect(await screen.findByText(/"Token User" connected/)).toBeTruthy();
    expect(await screen.findByText('Token User')).toBeTruthy();
  });

  it('keeps the token dialog open with the server refusal', async () => {
    const { api, user } = setup();
    await screen.findByText('Zhang Wei');
    await user.click(screen.getByRole('button', { name: /Paste a token/ }));
    const modal = await findDialog('Connect with an access token');
    await user.type(modal.getByLabelText('Access token'), 'EAABrevoked1234567890abcdef');
    await user.click(modal.getByRole('button', { name: /Check and connect/ }));
    expect(await screen.findByText('The token is invalid: it was revoked by the user.')).toBeTruthy();
    expect(api.count('/personal-accounts/connect_token')).toBe(1);
    expect(await findDialog('Connect with an access token')).toBeTruthy();
  });

  it('syncs now and follows the task every second until it is done, then refreshes the list', async () => {
    const { api, user } = setup();
    await screen.findByText('Zhang Wei');
    const listCalls = api.count('/personal-accounts/list');
    await user.click(rowOf('Li Na').getByRole('button', { name: 'Sync' }));
    await waitFor(() => expect(api.lastBody('/personal-accounts/sync')).toEqual({ ids: [2] }));
    expect(await screen.findByText('Syncing ad account 1 of 3')).toBeTruthy();
    expect(screen.getByRole('progressbar')).toBeTruthy();
    await screen.findByText('Synced 3 ad accounts, 2 pages, 1 pixel', undefined, { timeout: 8000 });
    expect(api.count('/tasks/get')).toBe(3);
    expect(await screen.findByText('Sync finished; the list is up to date')).toBeTruthy();
    await waitFor(() => expect(api.count('/personal-accounts/list')).toBeGreaterThan(listCalls));
    // No more polling once finished.
    await new Promise((r) => setTimeout(r, 1300));
    expect(api.count('/tasks/get')).toBe(3);
  });

  it('lists recent tasks in the tasks drawer, mine only on request', async () => {
    const { api, user } = setup({
      seed: {
        tasks: [
          buildTask({ id: 71, title: 'Sync personal accounts', status: 'success', message: 'Synced 1 personal account: 36 ad accounts', finished_at: daysFromNow(-0.01) }),
          buildTask({ id: 72, title: 'Check tokens', status: 'failed', error: 'Rate limited by the platform', trigger: 'schedule' }),
          buildTask({ id: 73, title: 'Sync personal accounts', status: 'queued', start_at: '2030-01-02T03:04:00Z', created_by_name: 'Mona' }),
        ],
      },
    });
    await screen.findByText('Zhang Wei');
    await user.click(screen.getByRole('button', { name: /Tasks/ }));
    const drawer = await findDialog('Tasks');
    expect(await drawer.findByText('Synced 1 personal account: 36 ad accounts')).toBeTruthy();
    // A task queued to start later says when.
    expect(drawer.getByText(new RegExp(`Started by Mona · .* · starts ${dayjs('2030-01-02T03:04:00Z').format('YYYY-MM-DD HH:mm')} \\(in \\d+ years\\)`))).toBeTruthy();
    expect(drawer.getByText('Rate limited by the platform')).toBeTruthy();
    expect(drawer.getByText('Failed')).toBeTruthy();
    expect(api.lastBody('/tasks/list')).toEqual({ page: 1, page_size: 30, sort_field: 'queued_at', sort_order: 'descend' });
    await user.click(drawer.getByText('Started by me'));
    await waitFor(() => expect(api.lastBody('/tasks/list')).toEqual({ page: 1, page_size: 30, sort_field: 'queued_at', sort_order: 'descend', mine: true }));
  });

  it('asks before disconnecting and says what happens', async () => {
    const { api, user } = setup();
    await screen.findByText('Zhang Wei');
    await user.click(rowOf('Zhang Wei').getByRole('button', { name: 'More Zhang Wei' }));
    await user.click(await screen.findByText('Disconnect'));
    const confirm = await findDialog('Disconnect the personal account "Zhang Wei"?');
    expect(confirm.getByText(/token is wiped at once/)).toBeTruthy();
    expect(confirm.getByText(/12 ad account/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(api.count('/personal-accounts/disconnect')).toBe(0);

    await user.click(rowOf('Zhang Wei').getByRole('button', { name: 'More Zhang Wei' }));
    await user.click(await screen.findByText('Disconnect'));
    await user.click((await findDialog('Disconnect the personal account "Zhang Wei"?')).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(api.lastBody('/personal-accounts/disconnect')).toEqual({ id: 1 }));
    await waitFor(() => expect(screen.queryByText('Zhang Wei')).toBeNull());
  });

  it('sets the owner of the selected accounts and switches hosting on one', async () => {
    const { api, user } = setup();
    await screen.findByText('Zhang Wei');
    await user.click(rowOf('Li Na').getByRole('switch', { name: 'Host "Li Na"' }));
    await waitFor(() => expect(api.lastBody('/personal-accounts/set_hosted')).toEqual({ ids: [2], hosted: false }));

    await user.click(rowOf('Zhang Wei').getByRole('checkbox'));
    await user.click(rowOf('Old Token').getByRole('checkbox'));
    const bar = within(screen.getByTestId('selection-bar'));
    await user.click(bar.getByRole('button', { name: /Set owner/ }));
    const modal = await findDialog('Set owner');
    await user.click(modal.getByLabelText('Owner'));
    await user.click(await screen.findByTitle('Bob (bob)'));
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/personal-accounts/set_owner')).toEqual({ ids: [1, 3], owner_user_id: 32 }));
  });

  it('offers staff no owner changes', async () => {
    const { user } = setup({ user: { ...manager, id: 50, is_admin: 0, is_leader: 0 } });
    await screen.findByText('Zhang Wei');
    await user.click(rowOf('Zhang Wei').getByRole('button', { name: 'More Zhang Wei' }));
    expect(await screen.findByText('Disconnect')).toBeTruthy();
    expect(screen.queryByText('Set owner')).toBeNull();
  });

  it('leads /operation/auth with how to connect and the permissions needed', async () => {
    setup({ url: '/operation/auth', connect: true });
    expect(screen.getByRole('heading', { name: 'Account authorization' })).toBeTruthy();
    const panel = within(screen.getByTestId('connect-panel'));
    expect(panel.getByRole('button', { name: /Connect a new account/ })).toBeTruthy();
    expect(within(panel.getByTestId('required-scopes')).getByText('ads_management')).toBeTruthy();
    expect(within(panel.getByTestId('required-scopes')).getByText('pages_manage_ads')).toBeTruthy();
    await screen.findByText('Zhang Wei');
  });

  it('invites to connect a first account when there is none', async () => {
    setup({ seed: { personalAccounts: [] } });
    expect(await screen.findByText(/No personal account yet — connect a Facebook account/)).toBeTruthy();
    expect(screen.getByTestId('connect-panel')).toBeTruthy();
  });
});
