import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildAdAccount, buildPersonalAccount } from '@/testing/asset-factories';
import { assetsBackend } from '@/testing/assets-backend';
import { findDialog, rowOf } from '@/testing/dom';
import { buildSimpleUser } from '@/testing/factories';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import AdAccountsPage from './ad-accounts-page';

const alice = buildSimpleUser({ id: 31, account: 'alice', name: 'Alice' });
const bob = buildSimpleUser({ id: 32, account: 'bob', name: 'Bob' });

function setup({ url = '/auth/account', user = manager }: { url?: string; user?: typeof manager } = {}) {
  const backend = assetsBackend({
    users: [alice, bob],
    personalAccounts: [buildPersonalAccount({ id: 7, name: 'Zhang Wei' })],
    adAccounts: [
      buildAdAccount({
        id: 1,
        name: 'US Drama 01',
        platform_id: 'act_111',
        currency: 'USD',
        amount_spent: 12345.5,
        balance: 230,
        spend_cap: 50000,
        platform: 'dj',
        hosted: true,
        personal_accounts: [{ id: 7, name: 'Zhang Wei', status: 'valid' }],
        users: [{ id: 31, name: 'Alice' }],
      }),
      buildAdAccount({ id: 2, name: 'JP Shop', platform_id: 'act_222', currency: 'JPY', amount_spent: 98000, balance: 1500, platform: 'ec', account_status: 2, disable_reason: 3 }),
      buildAdAccount({ id: 3, name: 'Orphan', platform_id: 'act_333', account_status: 101 }),
    ],
  });
  const api = mockApi(backend.handlers);
  const view = renderScreen(<AdAccountsPage />, { url, user });
  return { ...view, api, backend };
}

const filters = () => within(screen.getByRole('form', { name: 'filters' }));

describe('ad accounts page', { timeout: 60_000 }, () => {
  it('lists ad accounts with status, money in their currency, who reaches and uses them, and USD totals', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Ad accounts' })).toBeTruthy();
    await screen.findByText('US Drama 01');
    const us = rowOf('US Drama 01');
    expect(us.getByText('Active')).toBeTruthy();
    expect(us.getByText('USD 12,345.50')).toBeTruthy();
    expect(us.getByText('USD 230.00')).toBeTruthy();
    // The spend cap is in the column chooser (hidden by default, so the table fits 1440 px).
    expect(us.queryByText('USD 50,000.00')).toBeNull();
    expect(us.getByText('Zhang Wei')).toBeTruthy();
    expect(us.getByText('Alice')).toBeTruthy();
    expect(us.getByText('Short drama')).toBeTruthy();
    expect(us.getByText('Hosted')).toBeTruthy();

    const jp = rowOf('JP Shop');
    // JPY has no minor unit: no decimals.
    expect(jp.getByText('JPY 98,000')).toBeTruthy();
    expect(jp.getByText('Disabled')).toBeTruthy();
    expect(jp.getByText('Payment risk')).toBeTruthy();
    expect(jp.getByText('E-commerce')).toBeTruthy();

    const orphan = rowOf('Orphan');
    expect(orphan.getByText('Closed')).toBeTruthy();
    expect(orphan.getByText('Unreachable')).toBeTruthy();
    expect(orphan.getByText('Unassigned')).toBeTruthy();

    const totals = within(screen.getByTestId('totals-row'));
    expect(totals.getByText('Total (3 accounts, USD)')).toBeTruthy();
    expect(totals.getByText('USD 110,345.50')).toBeTruthy();
    expect(api.lastBody('/ad-accounts/list')).toEqual({ page: 1, page_size: 20 });
  });

  it('sends the filters and sort and keeps them in the URL', async () => {
    const { api, user, router } = setup();
    await screen.findByText('US Drama 01');
    await user.type(filters().getByLabelText('Keyword'), 'act_2{Enter}');
    await waitFor(() => expect(api.lastBody('/ad-accounts/list')).toEqual({ page: 1, page_size: 20, keyword: 'act_2' }));
    await user.click(filters().getByLabelText('Status'));
    await user.click(await screen.findByTitle('Disabled'));
    await waitFor(() => expect(api.lastBody('/ad-accounts/list')).toEqual({ page: 1, page_size: 20, keyword: 'act_2', account_status: 2 }));
    await user.click(filters().getByLabelText('Business'));
    await user.click(await screen.findByTitle('E-commerce'));
    await waitFor(() => expect(api.lastBody('/ad-accounts/list')).toMatchObject({ platform: 'ec' }));
    await user.click(filters().getByLabelText('Unassigned only'));
    await waitFor(() => expect(api.lastBody('/ad-accounts/list')).toEqual({ page: 1, page_size: 20, keyword: 'act_2', account_status: 2, platform: 'ec', unassigned: true }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ keyword: 'act_2', account_status: '2', platform: 'ec', unassigned: 'true' });
    await waitFor(() => expect(screen.queryByText('US Drama 01')).toBeNull());

    await user.click(screen.getAllByText('Amount spent')[0]!);
    await waitFor(() => expect(api.lastBody('/ad-accounts/list')).toMatchObject({ sort_field: 'amount_spent', sort_order: 'ascend' }));
  });

  it('opens a shared link with its filters applied, the personal account one included', async () => {
    const { api } = setup({ url: '/auth/account?personal_account_id=7&hosted=true&currency=USD' });
    await screen.findByText('US Drama 01');
    expect(screen.queryByText('JP Shop')).toBeNull();
    expect(api.bodies('/ad-accounts/list')[0]).toEqual({ page: 1, page_size: 20, personal_account_id: 7, hosted: true, currency: 'USD' });
    expect(within(screen.getByRole('form', { name: 'filters' })).getByTitle('Zhang Wei')).toBeTruthy();
  });

  it('remembers the columns chosen on the server, and saves and applies a named set', async () => {
    const { user, api, unmount } = setup();
    await screen.findByText('US Drama 01');
    expect(screen.getByRole('columnheader', { name: /Balance/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Columns/ }));
    const chooser = within(await screen.findByTestId('column-chooser'));
    await user.click(chooser.getByLabelText('Balance'));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Balance/ })).toBeNull());
    await waitFor(() => expect(api.preference('columns:/auth/account')).toEqual({ hidden: expect.arrayContaining(['balance', 'spend_cap']), sets: [] }));

    // Save the current choice as "Lean", then bring Balance back and apply "Lean" again.
    await user.type(chooser.getByLabelText('Save these columns as a set'), 'Lean');
    await user.click(chooser.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect((api.preference('columns:/auth/account') as { sets: { name: string; columns: string[] }[] }).sets).toEqual([{ name: 'Lean', columns: expect.not.arrayContaining(['balance']) }]));
    await user.click(chooser.getByLabelText('Balance'));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Balance/ })).toBeTruthy());
    await user.click(chooser.getByRole('button', { name: 'Apply "Lean"' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Balance/ })).toBeNull());
    const stored = api.preference('columns:/auth/account');
    unmount();

    // Another browser (a fresh cache) gets the same columns from the server.
    const again = assetsBackend({ adAccounts: [buildAdAccount({ id: 1, name: 'US Drama 01' })] });
    mockApi(again.handlers, { preferences: { 'columns:/auth/account': stored } });
    renderScreen(<AdAccountsPage />, { url: '/auth/account' });
    await screen.findByText('US Drama 01');
    expect(screen.queryByRole('columnheader', { name: /Balance/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: /Amount spent/ })).toBeTruthy();
  });

  it('clears every filter on 重置 (Reset) and keeps them cleared when sorting next', async () => {
    const { api, user, router } = setup({ url: '/auth/account?unassigned=true' });
    await screen.findByText('Orphan');
    expect((filters().getByLabelText('Unassigned only') as HTMLInputElement).checked).toBe(true);
    const header = screen.getAllByText('Amount spent')[0]!;
    await user.click(filters().getByRole('button', { name: /Reset/ }));
    await user.click(header);
    await waitFor(() => expect(api.lastBody('/ad-accounts/list')).toEqual({ page: 1, page_size: 20, sort_field: 'amount_spent', sort_order: 'ascend' }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ sort_field: 'amount_spent', sort_order: 'ascend' });
    expect((filters().getByLabelText('Unassigned only') as HTMLInputElement).checked).toBe(false);
    await screen.findByText('US Drama 01');

    // The export sends what the list shows.
    await user.click(screen.getByRole('button', { name: /Export Excel/ }));
    await waitFor(() => expect(api.lastBody('/ad-accounts/export')).toEqual({ sort_field: 'amount_spent', sort_order: 'ascend', columns: ['name', 'account_status', 'balance', 'amount_spent', 'personal_accounts', 'users', 'platform', 'hosted'] }));
  });

  it('says the select-all checkbox in the current language', async () => {
    setup();
    await screen.findByText('US Drama 01');
    expect(screen.getByRole('checkbox', { name: 'Select all on this page' })).toBeTruthy();
  });

  it('assigns users in bulk with the mode spelled out', async () => {
    const { api, user } = setup();
    await screen.findByText('US Drama 01');
    await user.click(rowOf('US Drama 01').getByRole('checkbox'));
    await user.click(rowOf('JP Shop').getByRole('checkbox'));
    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /Assign users/ }));
    const modal = await findDialog('Assign users');
    expect(modal.getByTestId('assign-mode-explain').textContent).toBe('The chosen users are added to these 2 accounts; the users they have stay.');
    await user.click(modal.getByRole('button', { name: /Save/ }));
    expect(await modal.findByText('Choose at least one user')).toBeTruthy();

    await user.click(modal.getByText('Replace'));
    expect(modal.getByTestId('assign-mode-explain').textContent).toBe('All current users of these 2 accounts are replaced by the chosen ones; choosing none clears them.');
    await user.click(modal.getByLabelText('Users'));
    await user.click(await screen.findByTitle('Bob (bob)'));
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/ad-accounts/assign_users')).toEqual({ ad_account_ids: [1, 2], user_ids: [32], mode: 'replace' }));
    await waitFor(() => expect(rowOf('US Drama 01').getByText('Bob')).toBeTruthy());
    expect(rowOf('US Drama 01').queryByText('Alice')).toBeNull();
  });

  it('sets the business, hosting and remarks of accounts, and exports what the filters match', async () => {
    const { api, user } = setup({ url: '/auth/account?platform=dj&sort_field=name&sort_order=ascend' });
    await screen.findByText('US Drama 01');
    await user.click(rowOf('US Drama 01').getByRole('checkbox'));
    const bar = () => within(screen.getByTestId('selection-bar'));
    await user.click(bar().getByRole('button', { name: /Set business/ }));
    const modal = await findDialog('Set business');
    await user.click(modal.getByText('E-commerce'));
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/ad-accounts/set_platform')).toEqual({ ad_account_ids: [1], platform: 'ec' }));

    // Now e-commerce, it leaves the drama-only list.
    await waitFor(() => expect(screen.queryByText('US Drama 01')).toBeNull());
    await user.click(screen.getByRole('button', { name: /Export Excel/ }));
    await waitFor(() => expect(api.lastBody('/ad-accounts/export')).toEqual({ platform: 'dj', sort_field: 'name', sort_order: 'ascend', columns: ['name', 'account_status', 'balance', 'amount_spent', 'personal_accounts', 'users', 'platform', 'hosted'] }));
  });

  it('takes accounts out of hosting and edits a remark', async () => {
    const { api, user } = setup();
    await screen.findByText('US Drama 01');
    await user.click(rowOf('US Drama 01').getByRole('checkbox'));
    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /Remove from hosting/ }));
    await waitFor(() => expect(api.lastBody('/ad-accounts/set_hosted')).toEqual({ ad_account_ids: [1], hosted: false }));

    await user.click(rowOf('JP Shop').getByRole('button', { name: 'Remark' }));
    const modal = await findDialog('Remark of "JP Shop"');
    await user.type(modal.getByLabelText('Remark'), '  Shop team  ');
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/ad-accounts/edit')).toEqual({ id: 2, remark: 'Shop team' }));
  });

  it('offers assignment to leaders, within their department, and not to staff', async () => {
    const leader = { ...manager, id: 60, is_admin: 0, is_leader: 1, department_id: 11, paths: ['/auth/account'] };
    const { api, user, unmount } = setup({ user: leader });
    await screen.findByText('US Drama 01');
    // Without the personal-account pages, that filter is left out (and never called).
    expect(filters().queryByLabelText('Personal account')).toBeNull();
    expect(api.count('/personal-accounts/list')).toBe(0);
    await user.click(rowOf('US Drama 01').getByRole('checkbox'));
    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /Assign users/ }));
    const modal = await findDialog('Assign users');
    await user.click(modal.getByLabelText('Users'));
    await waitFor(() => expect(api.bodies('/sys-users/simple_list')).toContainEqual({ department_id: 11 }));
    unmount();

    setup({ user: { ...leader, is_leader: 0 } });
    await screen.findByText('US Drama 01');
    await user.click(rowOf('US Drama 01').getByRole('checkbox'));
    const bar = within(screen.getByTestId('selection-bar'));
    expect(bar.queryByRole('button', { name: /Assign users/ })).toBeNull();
    expect(bar.getByRole('button', { name: /Set business/ })).toBeTruthy();
  });
});
