import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildAdAccount, buildPage, buildPersonalAccount } from '@/testing/asset-factories';
import { assetsBackend } from '@/testing/assets-backend';
import { findDialog, rowOf } from '@/testing/dom';
import { buildSimpleUser } from '@/testing/factories';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import PagesPage from './pages-page';

function setup({ url = '/auth/homepage', user = manager }: { url?: string; user?: typeof manager } = {}) {
  const backend = assetsBackend({
    users: [buildSimpleUser({ id: 31, account: 'alice', name: 'Alice' }), buildSimpleUser({ id: 32, account: 'bob', name: 'Bob' })],
    personalAccounts: [buildPersonalAccount({ id: 7, name: 'Zhang Wei' })],
    adAccounts: [buildAdAccount({ id: 1, name: 'US Drama 01', platform_id: 'act_111' }), buildAdAccount({ id: 2, name: 'JP Shop', platform_id: 'act_222' })],
    pages: [
      buildPage({
        id: 11,
        name: 'Sweet Drama Club',
        platform_id: '777011',
        category: 'Entertainment',
        picture_url: 'https://cdn.example.com/p/11.jpg',
        personal_accounts: [{ id: 7, name: 'Zhang Wei' }],
        ad_accounts: [{ id: 1, name: 'US Drama 01' }],
        users: [{ id: 31, name: 'Alice' }],
      }),
      buildPage({ id: 12, name: 'Shop Daily', platform_id: '777012' }),
    ],
  });
  const api = mockApi(backend.handlers);
  const view = renderScreen(<PagesPage />, { url, user });
  return { ...view, api, backend };
}

describe('pages page', { timeout: 60_000 }, () => {
  it('lists pages with picture, category, the accounts managing them and their associations', async () => {
    const { api, container } = setup();
    expect(screen.getByRole('heading', { name: 'Pages' })).toBeTruthy();
    await screen.findByText('Sweet Drama Club');
    const row = rowOf('Sweet Drama Club');
    expect(row.getByText('Entertainment')).toBeTruthy();
    expect(row.getByText('Zhang Wei')).toBeTruthy();
    expect(row.getByText('US Drama 01')).toBeTruthy();
    expect(row.getByText('Alice')).toBeTruthy();
    expect(container.querySelector('img[src="https://cdn.example.com/p/11.jpg"]')).toBeTruthy();
    expect(rowOf('Shop Daily').getAllByText('None').length).toBe(3);
    expect(api.lastBody('/pages/list')).toEqual({ page: 1, page_size: 20 });
  });

  it('filters by keyword and user on the server and keeps them in the URL', async () => {
    const { api, user, router } = setup();
    await screen.findByText('Sweet Drama Club');
    const filters = within(screen.getByRole('form', { name: 'filters' }));
    await user.type(filters.getByLabelText('Keyword'), 'Sweet{Enter}');
    await waitFor(() => expect(api.lastBody('/pages/list')).toEqual({ page: 1, page_size: 20, keyword: 'Sweet' }));
    await user.click(filters.getByLabelText('User'));
    await user.click(await screen.findByTitle('Alice (alice)'));
    await waitFor(() => expect(api.lastBody('/pages/list')).toEqual({ page: 1, page_size: 20, keyword: 'Sweet', user_id: 31 }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ keyword: 'Sweet', user_id: '31' });
  });

  it('removes ad accounts from the selected pages without touching their users', async () => {
    const { api, user } = setup();
    await screen.findByText('Sweet Drama Club');
    await user.click(rowOf('Sweet Drama Club').getByRole('checkbox'));
    await user.click(rowOf('Shop Daily').getByRole('checkbox'));
    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /Associate/ }));
    const modal = await findDialog('Page associations');
    await user.click(modal.getByText('Remove'));
    expect(modal.getByTestId('assign-mode-explain').textContent).toBe('The chosen ad accounts are removed from these 2 pages; the other ad accounts stay.');
    await user.click(modal.getByRole('button', { name: /Save/ }));
    expect(await modal.findByText('Choose at least one ad account')).toBeTruthy();
    await user.click(modal.getByRole('combobox', { name: 'Ad accounts' }));
    await user.click(await screen.findByTitle('US Drama 01 (act_111)'));
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/pages/associate')).toEqual({ page_ids: [11, 12], ad_account_ids: [1], mode: 'remove' }));
    await waitFor(() => expect(rowOf('Sweet Drama Club').queryByText('US Drama 01')).toBeNull());
  });

  it('adds users to one page when only users are ticked', async () => {
    const { api, user } = setup();
    await screen.findByText('Shop Daily');
    await user.click(rowOf('Shop Daily').getByRole('button', { name: 'Associate "Shop Daily"' }));
    const modal = await findDialog('Page associations');
    await user.click(modal.getByRole('checkbox', { name: 'Users' }));
    await user.click(modal.getByRole('checkbox', { name: 'Ad accounts' }));
    // The fields follow the ticks through Form.useWatch, a render later: wait for it (flaky under load in CI).
    await waitFor(() => expect(modal.queryByRole('combobox', { name: 'Ad accounts' })).toBeNull());
    await user.click(await modal.findByRole('combobox', { name: 'Users' }));
    await user.click(await screen.findByTitle('Bob (bob)'));
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/pages/associate')).toEqual({ page_ids: [12], user_ids: [32], mode: 'add' }));
  });

  it('lets staff associate ad accounts only', async () => {
    const { user } = setup({ user: { ...manager, id: 70, is_admin: 0, is_leader: 0 } });
    await screen.findByText('Shop Daily');
    await user.click(rowOf('Shop Daily').getByRole('button', { name: 'Associate "Shop Daily"' }));
    const modal = await findDialog('Page associations');
    expect(modal.queryByRole('checkbox', { name: 'Users' })).toBeNull();
    expect(modal.queryByLabelText('Users')).toBeNull();
    expect(modal.getByRole('combobox', { name: 'Ad accounts' })).toBeTruthy();
  });
});
