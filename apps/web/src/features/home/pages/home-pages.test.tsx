import { ADMIN_PATHS, IS_ADMIN_SUPER, type HomeOverview } from '@ads/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import NotAvailablePage from '@/components/not-available-page';
import { buildCronJob } from '@/testing/cron-backend';
import { buildDashboard as dashboard } from '@/testing/dashboard-factories';
import { mockApi, MockRefusal } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import AdminIndexPage from './admin-index-page';
import IndexPage from './index-page';

const root = { ...manager, id: 2, account: 'admin', name: 'Root', is_admin: IS_ADMIN_SUPER, paths: [...ADMIN_PATHS] };
const assets: HomeOverview = {
  personal_accounts: { total: 5, valid: 3, expiring: 1, invalid: 1 },
  ad_accounts: { total: 12, active: 9, hosted: 4 },
  pages: 7,
  pixels: 2,
  materials: { total: 31, dj: 20, ec: 11 },
};
const figure = (title: string) => within(screen.getByTestId(`figure-${title}`));

describe('home page (/index)', () => {
  it('shows the counts of the caller\'s scope with their breakdown and links to the screens', async () => {
    const api = mockApi({ '/overview/home': () => assets, '/overview/dashboard': () => dashboard() });
    renderScreen(<IndexPage />, { url: '/index' });
    expect(screen.getByRole('heading', { name: 'Hello, Manager' })).toBeTruthy();
    expect(await screen.findByText('31')).toBeTruthy();
    expect(api.count('/overview/home')).toBe(1);
    expect(figure('Personal accounts').getByText('5')).toBeTruthy();
    expect(figure('Personal accounts').getByText('Expiring').textContent).toContain('Expiring');
    expect(figure('Ad accounts').getByText('12')).toBeTruthy();
    expect(figure('Materials').getByText('E-commerce')).toBeTruthy();
    expect(figure('Ad accounts').getByRole('link', { name: 'Ad accounts' }).getAttribute('href')).toBe('/auth/account');
  });

  it('links only to screens the user may open', async () => {
    mockApi({ '/overview/home': () => assets, '/overview/dashboard': () => dashboard() });
    renderScreen(<IndexPage />, { url: '/index', user: { ...manager, is_admin: 0, paths: ['/index', '/material/upload'] } });
    await screen.findByText('31');
    expect(figure('Materials').getByRole('link', { name: 'Materials' })).toBeTruthy();
    expect(figure('Ad accounts').queryByRole('link')).toBeNull();
  });

  it('offers a retry when the overview fails', async () => {
    let fail = true;
    mockApi({ '/overview/home': () => (fail ? new MockRefusal('Database unavailable') : assets), '/overview/dashboard': () => dashboard() });
    renderScreen(<IndexPage />, { url: '/index' });
    expect(await screen.findByText('The overview could not be loaded')).toBeTruthy();
    fail = false;
    screen.getByRole('button', { name: 'Retry' }).click();
    expect(await screen.findByText('31')).toBeTruthy();
  });
});

describe('admin overview (/admin/index)', () => {
  it('counts the company and lists each job with its last run', async () => {
    mockApi({
      '/overview/dashboard': () => dashboard({ company: true }),
      '/overview/admin': () => ({
        ...assets,
        users: { total: 15, enabled: 14, disabled: 1, managers: 2, leaders: 3 },
        departments: 4,
        roles: 6,
        sites: 2,
        jobs: [
          buildCronJob({ last_run: { status: 'failed', started_at: '2026-03-01T03:17:00.000Z', finished_at: '2026-03-01T03:17:01.000Z', duration_ms: 1000, message: 'Database unavailable' } }),
          buildCronJob({ name: 'push-materials', title: 'Push materials', schedule: null, default_schedule: null, next_run_at: null }),
        ],
      }),
    });
    renderScreen(<AdminIndexPage />, { url: '/admin/index', user: root });
    expect(screen.getByRole('heading', { name: 'System overview' })).toBeTruthy();
    expect(await screen.findByText('15')).toBeTruthy();
    expect(figure('Staff accounts').getByText('Leaders')).toBeTruthy();
    expect(figure('Departments').getByText('4')).toBeTruthy();
    expect(figure('Personal accounts').getByText('5')).toBeTruthy();
    // The super admin cannot open /auth/personage: no link to it.
    expect(figure('Personal accounts').queryByRole('link')).toBeNull();
    const failed = screen.getByText('Clean up sessions and old records').closest('tr')!;
    expect(within(failed as HTMLElement).getByText('Failed')).toBeTruthy();
    expect(within(failed as HTMLElement).getByText('Database unavailable')).toBeTruthy();
    const manual = screen.getByText('Push materials').closest('tr')!;
    expect(within(manual as HTMLElement).getByText('Never run')).toBeTruthy();
    expect(within(manual as HTMLElement).getByText('On demand only')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Manage scheduled tasks' }).getAttribute('href')).toBe('/admin/sys/cron');
  });
});

describe('not-available page', () => {
  it('offers the way home when home is another page', () => {
    renderScreen(<NotAvailablePage />, { url: '/admin/order/list', user: root });
    expect(screen.getByRole('button', { name: /Back to home/ })).toBeTruthy();
  });

  it('never links "back home" to itself', () => {
    renderScreen(<NotAvailablePage />, { url: '/analyse/effect', user: { ...manager, is_admin: 0, paths: ['/analyse', '/analyse/effect'] } });
    expect(screen.queryByRole('button', { name: /Back to home/ })).toBeNull();
  });
});
