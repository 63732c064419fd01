import { IS_ADMIN_STAFF } from '@ads/contracts';
import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import AdAccountsPage from '@/features/ad-accounts/pages/ad-accounts-page';
import HostingPage from '@/features/hosting/pages/hosting-page';
import PagesPage from '@/features/pages/pages/pages-page';
import PixelsPage from '@/features/pixels/pages/pixels-page';
import { assetsBackend, type AssetSeed } from '@/testing/assets-backend';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import { rulesBackend } from '@/testing/rules-backend';
import PersonalAccountsPage from './personal-accounts-page';

/** A staff member with every authorization and hosting screen, and nothing of their own in them. */
const staff = {
  ...manager,
  id: 8,
  account: 'clerk',
  is_admin: IS_ADMIN_STAFF,
  department_id: 3,
  paths: ['/auth', '/auth/pixel', '/auth/homepage', '/auth/account', '/auth/personage', '/operation', '/operation/auth', '/operation/account'],
};

function show(page: ReactElement, url: string, outsideScope: AssetSeed['outsideScope']) {
  // The hosting screen also counts the rules that are on (none here).
  mockApi({ ...assetsBackend({ outsideScope }).handlers, ...rulesBackend().handlers });
  renderScreen(page, { url, user: staff });
}

// The empty screens of the asset lists (api-assets.md `outside_scope`): an empty list in one's data
// scope is not "nothing yet" when the company has rows outside it.
describe('empty asset lists', { timeout: 60_000 }, () => {
  it('say the company has personal accounts outside the viewer’s scope instead of "connect one"', async () => {
    show(<PersonalAccountsPage />, '/auth/personage', { personal: 3 });
    expect(await screen.findByText('No personal account in your data scope; the company has 3 more. Ask a manager if you need to see them.')).toBeTruthy();
    expect(screen.queryByText(/No personal account yet/)).toBeNull();
  });

  it('say so for ad accounts', async () => {
    show(<AdAccountsPage />, '/auth/account', { adAccounts: 15 });
    expect(await screen.findByText('No ad account in your data scope; the company has 15 more. Ask a manager if you need to see them.')).toBeTruthy();
  });

  it('say so for pages', async () => {
    show(<PagesPage />, '/auth/homepage', { pages: 2 });
    expect(await screen.findByText('No page in your data scope; the company has 2 more. Ask a manager if you need to see them.')).toBeTruthy();
  });

  it('say so for pixels', async () => {
    show(<PixelsPage />, '/auth/pixel', { pixels: 1 });
    expect(await screen.findByText('No pixel in your data scope; the company has 1 more. Ask a manager if you need to see them.')).toBeTruthy();
  });

  it('say so on the hosting screen', async () => {
    show(<HostingPage />, '/operation/account', { adAccounts: 4 });
    expect(await screen.findByText('No hosted ad account in your data scope; the company has 4 more. Ask a manager if you need to see them.')).toBeTruthy();
  });

  it('keep the first-use message when nothing lies outside the scope', async () => {
    show(<PixelsPage />, '/auth/pixel', {});
    expect(await screen.findByText(/No pixel yet/)).toBeTruthy();
    expect(screen.queryByText(/in your data scope/)).toBeNull();
  });
});
