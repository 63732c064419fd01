import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildAdAccount, buildPixel, daysFromNow } from '@/testing/asset-factories';
import { assetsBackend } from '@/testing/assets-backend';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import PixelsPage from './pixels-page';

function setup({ user = manager }: { user?: typeof manager } = {}) {
  const backend = assetsBackend({
    adAccounts: [buildAdAccount({ id: 1, name: 'US Drama 01', platform_id: 'act_111' }), buildAdAccount({ id: 2, name: 'JP Shop', platform_id: 'act_222' })],
    pixels: [
      buildPixel({ id: 21, name: 'Main pixel', platform_id: '888021', last_fired_at: daysFromNow(-2 / 24), ad_accounts: [{ id: 1, name: 'US Drama 01', source: 'platform' }], sites: [{ id: 5, name: 'Drama site' }] }),
      buildPixel({ id: 22, name: 'Spare pixel', platform_id: '888022' }),
    ],
  });
  const api = mockApi(backend.handlers);
  const view = renderScreen(<PixelsPage />, { url: '/auth/pixel', user });
  return { ...view, api, backend };
}

describe('pixels page', { timeout: 60_000 }, () => {
  it('lists pixels with when they last fired, the accounts they are shared with and the sites using them', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Pixels' })).toBeTruthy();
    await screen.findByText('Main pixel');
    const main = rowOf('Main pixel');
    expect(main.getByText('2 hours ago')).toBeTruthy();
    // Shared on the platform: a plain tag (an association made here would be blue).
    expect(main.getByText('US Drama 01').closest('[data-source]')?.getAttribute('data-source')).toBe('platform');
    expect(main.getByText('Drama site')).toBeTruthy();
    const spare = rowOf('Spare pixel');
    expect(spare.getByText('Never fired')).toBeTruthy();
    expect(spare.getByText('Not shared')).toBeTruthy();
    expect(api.lastBody('/pixels/list')).toEqual({ page: 1, page_size: 20 });
  });

  it('filters by keyword and sorts by last fired on the server', async () => {
    const { api, user } = setup();
    await screen.findByText('Main pixel');
    await user.type(within(screen.getByRole('form', { name: 'filters' })).getByLabelText('Keyword'), '888022{Enter}');
    await waitFor(() => expect(api.lastBody('/pixels/list')).toEqual({ page: 1, page_size: 20, keyword: '888022' }));
    await waitFor(() => expect(screen.queryByText('Main pixel')).toBeNull());
    await user.click(screen.getAllByText('Last fired')[0]!);
    await waitFor(() => expect(api.lastBody('/pixels/list')).toEqual({ page: 1, page_size: 20, keyword: '888022', sort_field: 'last_fired_at', sort_order: 'ascend' }));
  });

  it('replaces the ad accounts of the selected pixels', async () => {
    const { api, user } = setup();
    await screen.findByText('Main pixel');
    await user.click(rowOf('Main pixel').getByRole('checkbox'));
    await user.click(rowOf('Spare pixel').getByRole('checkbox'));
    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /Associate ad accounts/ }));
    const modal = await findDialog('Share pixels with ad accounts');
    await user.click(modal.getByText('Replace'));
    expect(modal.getByTestId('assign-mode-explain').textContent).toContain('All current ad accounts of these 2 pixels are replaced');
    expect(modal.getByText(/This adds and removes only the associations made here/)).toBeTruthy();
    await user.click(modal.getByLabelText('Ad accounts', { selector: 'input' }));
    await user.click(await screen.findByTitle('JP Shop (act_222)'));
    await user.click(modal.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(api.lastBody('/pixels/associate')).toEqual({ pixel_ids: [21, 22], ad_account_ids: [2], mode: 'replace' }));
    await waitFor(() => expect(rowOf('Main pixel').getByText('JP Shop')).toBeTruthy());
    // The platform's sharing is untouched by a replace; the new association is marked as made here.
    expect(rowOf('Main pixel').getByText('US Drama 01').closest('[data-source]')?.getAttribute('data-source')).toBe('platform');
    expect(rowOf('Main pixel').getByText('JP Shop').closest('[data-source]')?.getAttribute('data-source')).toBe('manual');
    expect(rowOf('Spare pixel').getByText('JP Shop').closest('[data-source]')?.getAttribute('data-source')).toBe('manual');
  });

  it('offers no association to someone who cannot list ad accounts', async () => {
    setup({ user: { ...manager, is_admin: 0, paths: ['/auth/pixel'] } });
    await screen.findByText('Main pixel');
    expect(screen.queryByRole('button', { name: 'Associate "Main pixel"' })).toBeNull();
    expect(rowOf('Main pixel').queryByRole('checkbox')).toBeNull();
  });
});
