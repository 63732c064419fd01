import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildAdAccount } from '@/testing/asset-factories';
import { assetsBackend } from '@/testing/assets-backend';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import { rulesBackend } from '@/testing/rules-backend';
import HostingPage from './hosting-page';

function setup(url = '/operation/account') {
  const backend = assetsBackend({
    adAccounts: [
      buildAdAccount({ id: 1, name: 'US Drama 01', hosted: true, platform: 'dj', amount_spent: 1200 }),
      buildAdAccount({ id: 2, name: 'US Drama 02', hosted: false, platform: 'dj' }),
      buildAdAccount({ id: 3, name: 'JP Shop', hosted: false, platform: 'ec', currency: 'JPY', amount_spent: 5000 }),
    ],
  });
  const api = mockApi({ ...backend.handlers, ...rulesBackend().handlers });
  const view = renderScreen(<HostingPage />, { url });
  return { ...view, api, backend };
}

describe('hosting page', { timeout: 60_000 }, () => {
  it('explains what hosting does and that rules act on hosted accounts only, and lists the hosted accounts', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Hosted ad accounts' })).toBeTruthy();
    const explainer = within(screen.getByTestId('hosting-explainer'));
    expect(explainer.getByText('Stop-loss')).toBeTruthy();
    expect(explainer.getByText('Budget caps')).toBeTruthy();
    expect(within(explainer.getByTestId('rules-hosted-only')).getByText('Rules act on hosted accounts only')).toBeTruthy();
    expect(within(explainer.getByTestId('rules-hosted-only')).getByText(/changes nothing on Facebook by itself/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Hosted accounts' })).toBeTruthy();

    await screen.findByText('US Drama 01');
    expect(screen.queryByText('JP Shop')).toBeNull();
    expect(await screen.findByRole('tab', { name: 'Hosted (1)' })).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'Not hosted (2)' })).toBeTruthy();
    expect(api.bodies('/ad-accounts/list')).toContainEqual({ page: 1, page_size: 20, hosted: true });
    expect(api.bodies('/ad-accounts/list')).toContainEqual({ page: 1, page_size: 1, hosted: false });
  });

  it('adds accounts to hosting after a confirmation that says nothing changes on the platform', async () => {
    const { api, user, router } = setup();
    await screen.findByText('US Drama 01');
    await user.click(screen.getByRole('tab', { name: /Not hosted/ }));
    await screen.findByText('JP Shop');
    expect(new URLSearchParams(router.state.location.search).get('tab')).toBe('available');
    expect(api.lastBody('/ad-accounts/list')).toEqual({ page: 1, page_size: 1, hosted: true });
    expect(api.bodies('/ad-accounts/list')).toContainEqual({ page: 1, page_size: 20, hosted: false });

    await user.click(rowOf('US Drama 02').getByRole('checkbox'));
    await user.click(rowOf('JP Shop').getByRole('checkbox'));
    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /Add to hosting/ }));
    const confirm = await findDialog('Add 2 ad accounts to hosting?');
    expect(confirm.getByText(/Adding them changes nothing on Facebook by itself/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(api.count('/ad-accounts/set_hosted')).toBe(0);

    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /Add to hosting/ }));
    await user.click((await findDialog('Add 2 ad accounts to hosting?')).getByRole('button', { name: 'Add to hosting' }));
    await waitFor(() => expect(api.lastBody('/ad-accounts/set_hosted')).toEqual({ ad_account_ids: [2, 3], hosted: true }));
    expect(await screen.findByText('2 account(s) added to hosting')).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'Hosted (3)' })).toBeTruthy();
  });

  it('removes one account from hosting after confirming', async () => {
    const { api, user } = setup();
    await screen.findByText('US Drama 01');
    await user.click(rowOf('US Drama 01').getByRole('button', { name: 'Remove from hosting US Drama 01' }));
    const confirm = await findDialog('Remove 1 ad account from hosting?');
    await user.click(confirm.getByRole('button', { name: 'Remove from hosting' }));
    await waitFor(() => expect(api.lastBody('/ad-accounts/set_hosted')).toEqual({ ad_account_ids: [1], hosted: false }));
    expect(await screen.findByText('No ad account is hosted yet — pick some under "Not hosted".')).toBeTruthy();
  });

  it('filters both sides alike', async () => {
    const { api, user } = setup();
    await screen.findByText('US Drama 01');
    await user.type(within(screen.getByRole('form', { name: 'filters' })).getByLabelText('Keyword'), 'Shop{Enter}');
    await waitFor(() => expect(api.bodies('/ad-accounts/list')).toContainEqual({ page: 1, page_size: 20, keyword: 'Shop', hosted: true }));
    expect(api.bodies('/ad-accounts/list')).toContainEqual({ page: 1, page_size: 1, keyword: 'Shop', hosted: false });
    expect(await screen.findByRole('tab', { name: 'Not hosted (1)' })).toBeTruthy();
  });
});
