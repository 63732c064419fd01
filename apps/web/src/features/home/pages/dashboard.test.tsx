import { ADMIN_PATHS, IS_ADMIN_SUPER } from '@ads/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDashboard, buildDashboardDay } from '@/testing/dashboard-factories';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import AdminIndexPage from './admin-index-page';
import IndexPage from './index-page';

// The delivery dashboard of 首页 (/index) and of the admin overview (/admin/index): figures as the
// server computes them, formatted by the metric registry; not-matured D0 ROI; organic orders on
// company-wide views only; top lists linking into the reports; alerts linking to their screens.

const assets = { personal_accounts: { total: 0, valid: 0, expiring: 0, invalid: 0 }, ad_accounts: { total: 0, active: 0, hosted: 0 }, pages: 0, pixels: 0, materials: { total: 0, dj: 0, ec: 0 } };
const root = { ...manager, id: 2, account: 'admin', name: 'Root', is_admin: IS_ADMIN_SUPER, paths: [...ADMIN_PATHS] };
const kpi = (key: string) => within(screen.getByTestId(`kpi-${key}`));

describe('delivery dashboard on 首页', () => {
  it('shows today against yesterday, D0 ROI not matured while today lasts, and no organic line in a personal scope', async () => {
    mockApi({ '/overview/home': () => assets, '/overview/dashboard': () => buildDashboard() });
    renderScreen(<IndexPage />, { url: '/index' });
    expect(await kpi('spend').findByText('$1,234.50')).toBeTruthy();
    expect(kpi('spend').getByText('Yesterday $2,000.00')).toBeTruthy();
    expect(kpi('revenue').getByText('$987.25')).toBeTruthy();
    expect(kpi('roi').getByText('79.97%')).toBeTruthy();
    expect(kpi('d0_roi').getByText('Not matured')).toBeTruthy();
    expect(kpi('d0_roi').getByText('Yesterday 61.50%')).toBeTruthy();
    expect(kpi('orders').getByText('42')).toBeTruthy();
    expect(kpi('orders').getByText('Yesterday 77')).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Delivery dashboard/ })).toBeTruthy();
    expect(screen.queryByTestId('organic-line')).toBeNull();
    expect(screen.getByText('Last 30 days')).toBeTruthy();
  });

  it('links top dramas to 广告数据 filtered to the drama and top campaigns to their ad sets, over the ranking period', async () => {
    mockApi({ '/overview/home': () => assets, '/overview/dashboard': () => buildDashboard() });
    renderScreen(<IndexPage />, { url: '/index' });
    const drama = await within(await screen.findByTestId('top-dramas')).findByRole('link', { name: 'Love in Paris' });
    expect(drama.getAttribute('href')).toBe('/advertising/campaign?drama_id=7&date_from=2026-10-26&date_to=2026-11-01');
    const campaign = within(screen.getByTestId('top-campaigns')).getByRole('link', { name: 'LIP-US-01' });
    expect(campaign.getAttribute('href')).toBe('/advertising/group?campaign_id=31&campaign_name=LIP-US-01&date_from=2026-10-26&date_to=2026-11-01');
    expect(within(screen.getByTestId('top-campaigns')).getByText('180.00%')).toBeTruthy();
    expect(screen.getByText('Rankings from 2026-10-26 to 2026-11-01')).toBeTruthy();
  });

  it('ranks by what the user picks: the body carries it', async () => {
    const api = mockApi({
      '/overview/home': () => assets,
      '/overview/dashboard': (b) => buildDashboard({ top_dramas: b.top_by === 'roi' ? [{ id: 8, name: 'Best ROI', detail: null, spend: 10, revenue: 50, roi: 500, d0_roi: null }] : buildDashboard().top_dramas }),
    });
    const { user } = renderScreen(<IndexPage />, { url: '/index' });
    await screen.findByText('Love in Paris');
    expect(api.lastBody('/overview/dashboard')).toEqual({ top_range: 'last7', top_by: 'spend' });
    await user.click(screen.getByText('By ROI'));
    expect(await screen.findByText('Best ROI')).toBeTruthy();
    expect(api.lastBody('/overview/dashboard')).toEqual({ top_range: 'last7', top_by: 'roi' });
  });

  it('lists alerts with their reason, counts what is not listed, and links to the screen that deals with them', async () => {
    mockApi({ '/overview/home': () => assets, '/overview/dashboard': () => buildDashboard() });
    renderScreen(<IndexPage />, { url: '/index' });
    const alerts = within(await screen.findByTestId('dashboard-alerts'));
    expect(await alerts.findByText('Acc disabled')).toBeTruthy();
    const disabled = within(screen.getByTestId('alert-ad_account_disabled'));
    expect(disabled.getByText(/Disabled/)).toBeTruthy();
    expect(disabled.getByRole('link', { name: 'Resolve' }).getAttribute('href')).toBe('/auth/account');
    expect(within(screen.getByTestId('alert-sync_failed')).getByText(/Token expired/)).toBeTruthy();
    expect(within(screen.getByTestId('alert-token_expiring')).getByRole('link', { name: 'Resolve' }).getAttribute('href')).toBe('/auth/personage');
    expect(alerts.getByText('5')).toBeTruthy();
    expect(screen.getByTestId('alerts-more').textContent).toContain('2 more: Token expires within 7 days');
  });

  it('names rows without links for a user who may not open the reports, and says when all is clear', async () => {
    mockApi({ '/overview/home': () => assets, '/overview/dashboard': () => buildDashboard({ alerts: [], alert_counts: { token_expiring: 0, token_invalid: 0, ad_account_disabled: 0, sync_failed: 0, job_failed: 0, site_silent: 0, site_failing: 0 } }) });
    renderScreen(<IndexPage />, { url: '/index', user: { ...manager, is_admin: 0, paths: ['/index'] } });
    const dramas = within(await screen.findByTestId('top-dramas'));
    expect(await dramas.findByText('Love in Paris')).toBeTruthy();
    expect(dramas.queryByRole('link')).toBeNull();
    expect(screen.getByText('All clear: nothing needs attention')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Open ad data' })).toBeNull();
  });
});

describe('the landing page renders each part with its own answer', () => {
  /** An answer the test gives when it chooses (a slow endpoint). */
  function later<T>() {
    let give!: (v: T) => void;
    const promise = new Promise<T>((resolve) => (give = resolve));
    return { promise, give };
  }
  const counted = { ...assets, personal_accounts: { total: 917, valid: 900, expiring: 10, invalid: 7 } };
  const cardOf = (title: string) => within(screen.getByText(title).closest('.ant-card') as HTMLElement);

  it('shows the dashboard while the counts of assets are still on their way, then the counts', async () => {
    const home = later<typeof counted>();
    mockApi({ '/overview/home': () => home.promise, '/overview/dashboard': () => buildDashboard() });
    renderScreen(<IndexPage />, { url: '/index' });
    expect(await kpi('spend').findByText('$1,234.50')).toBeTruthy();
    expect(await within(await screen.findByTestId('top-campaigns')).findByText('LIP-US-01')).toBeTruthy();
    expect(screen.queryByText('917')).toBeNull();
    home.give(counted);
    expect(await cardOf('Personal accounts').findByText('917')).toBeTruthy();
  });

  it('shows the counts of assets while the dashboard is still on its way, then the figures', async () => {
    const dashboard = later<ReturnType<typeof buildDashboard>>();
    mockApi({ '/overview/home': () => counted, '/overview/dashboard': () => dashboard.promise });
    renderScreen(<IndexPage />, { url: '/index' });
    expect(await cardOf('Personal accounts').findByText('917')).toBeTruthy();
    expect(screen.queryByText('$1,234.50')).toBeNull();
    expect(screen.queryByTestId('top-campaigns')).toBeNull();
    dashboard.give(buildDashboard());
    expect(await kpi('spend').findByText('$1,234.50')).toBeTruthy();
  });

  it('puts the top lists side by side only on wide screens (xxl, ≥ 1600 px: about 1400 px beside the menu), stacked below', async () => {
    mockApi({ '/overview/home': () => assets, '/overview/dashboard': () => buildDashboard() });
    renderScreen(<IndexPage />, { url: '/index' });
    const columnOf = (el: HTMLElement) => el.closest('.ant-col') as HTMLElement;
    const campaigns = columnOf(await screen.findByTestId('top-campaigns'));
    const dramas = columnOf(screen.getByTestId('top-dramas'));
    for (const col of [campaigns, dramas]) {
      expect(col.className).toContain('ant-col-xs-24');
      expect(col.className).toContain('ant-col-xxl-12');
      // No narrower breakpoint splits them.
      expect(col.className).not.toMatch(/ant-col-(sm|md|lg|xl)-/);
    }
    expect(campaigns.parentElement).toBe(dramas.parentElement);
  });
});

describe('delivery dashboard on the admin overview', () => {
  it('shows the company with organic orders apart and opens the admin screens', async () => {
    const today = buildDashboardDay('2026-11-01', { spend: 100, revenue: 50, d0_matured: false, organic_revenue: 12.5, organic_orders: 3 });
    const yesterday = buildDashboardDay('2026-10-31', { spend: 90, organic_revenue: 7, organic_orders: 1 });
    mockApi({
      '/overview/admin': () => ({ ...assets, users: { total: 1, enabled: 1, disabled: 0, managers: 0, leaders: 0 }, departments: 0, roles: 0, sites: 1, jobs: [] }),
      '/overview/dashboard': () =>
        buildDashboard({
          company: true,
          days: { today, yesterday },
          alerts: [{ kind: 'job_failed', id: null, name: 'Clean up sessions', detail: 'disk full', at: '2026-11-01T06:00:00.000Z', status: null }],
          alert_counts: { token_expiring: 0, token_invalid: 0, ad_account_disabled: 0, sync_failed: 0, job_failed: 1, site_silent: 0, site_failing: 0 },
        }),
    });
    renderScreen(<AdminIndexPage />, { url: '/admin/index', user: root });
    expect(await screen.findByRole('heading', { name: /Company delivery dashboard/ })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('organic-line').textContent).toBe('Organic (no ad, not in revenue or ROI): today $12.50, 3 orders; yesterday $7.00, 1 orders'));
    const campaign = within(screen.getByTestId('top-campaigns')).getByRole('link', { name: 'LIP-US-01' });
    expect(campaign.getAttribute('href')).toBe('/admin/advertising/details?id=31');
    const drama = within(screen.getByTestId('top-dramas')).getByRole('link', { name: 'Love in Paris' });
    expect(drama.getAttribute('href')).toBe('/admin/advertising/campaign?drama_id=7&date_from=2026-10-26&date_to=2026-11-01');
    expect(within(screen.getByTestId('alert-job_failed')).getByRole('link', { name: 'Resolve' }).getAttribute('href')).toBe('/admin/sys/cron');
    expect(screen.getByRole('link', { name: 'Open ad data' }).getAttribute('href')).toBe('/admin/advertising/campaign');
  });
});
