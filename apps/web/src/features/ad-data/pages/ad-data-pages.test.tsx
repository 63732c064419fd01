import { ADMIN_PATHS, IS_ADMIN_SUPER, METRIC_KEYS, metrics } from '@ads/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { assetsBackend } from '@/testing/assets-backend';
import { adDataBackend, buildOperation, COPY_BATCH, type MockReportRow } from '@/testing/ad-data-backend';
import { formatDateTime } from '@/lib/format';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';

const superAdmin = { ...manager, id: 2, account: 'admin', name: 'Admin', is_admin: IS_ADMIN_SUPER, paths: [...ADMIN_PATHS] };
import AccountReportPage from './account-report-page';
import AdminAdsetPage from './admin-adset-page';
import AdsetReportPage from './adset-report-page';
import CampaignDetailsPage from './campaign-details-page';
import CopyLogPage from './copy-log-page';
import OptimizerReportPage from './optimizer-report-page';

const account = { id: 11, name: 'US Drama 01', currency: 'USD', timezone_name: 'America/Los_Angeles' };
const jpAccount = { id: 12, name: 'JP Drama', currency: 'JPY', timezone_name: 'Asia/Tokyo' };

const rows: MockReportRow[] = [
  { level: 'optimizer', row: { id: 5, name: 'Alice' }, facts: { spend_usd_cents: 12000, impressions: 10000, clicks: 200, purchases: 3, purchase_value_usd_cents: 24000 }, previous: { spend_usd_cents: 10000, impressions: 8000, clicks: 100 } },
  { level: 'optimizer', row: { id: 6, name: 'Bob' }, facts: { spend_usd_cents: 8050, impressions: 5000, clicks: 50, purchases: 1, purchase_value_usd_cents: 3000 }, previous: { spend_usd_cents: 9000, impressions: 5000, clicks: 60 } },
  { level: 'account', row: { id: 11, name: 'US Drama 01', platform_id: 'act_111', ad_account: account }, facts: { spend_usd_cents: 12000, impressions: 10000, clicks: 200 }, parents: { owner_user_id: 5 } },
  {
    level: 'adset',
    row: { id: 31, name: 'US set A', platform_id: '2385001', ad_account: account, status: 'ACTIVE', effective_status: 'ACTIVE', budget_level: 'adset', daily_budget_minor: 2000, currency: 'USD' },
    facts: { spend_usd_cents: 5000, impressions: 4000, clicks: 80 },
    parents: { ad_account_id: 11, campaign_id: 21 },
  },
  {
    level: 'adset',
    row: { id: 32, name: 'JP set B', platform_id: '2385002', ad_account: jpAccount, status: 'ACTIVE', effective_status: 'ACTIVE', budget_level: 'adset', daily_budget_minor: 3000, currency: 'JPY' },
    facts: { spend_usd_cents: 2000, impressions: 1000, clicks: 10 },
    parents: { ad_account_id: 12, campaign_id: 21 },
  },
];

function setup(ui: React.ReactElement, url: string, opts: Parameters<typeof adDataBackend>[0] = { rows }) {
  const backend = adDataBackend(opts);
  // The pickers of the filter bars (ad accounts, dramas, products, users) read the asset lists.
  const api = mockApi({ ...assetsBackend({}).handlers, ...backend.handlers });
  const view = renderScreen(ui, { url });
  return { ...view, api, backend };
}

describe('ad data report', { timeout: 60_000 }, () => {
  it('shows one row per optimizer with registry metrics and a totals row equal to the rows', async () => {
    const { api, user } = setup(<OptimizerReportPage />, '/advertising/user');
    expect(screen.getByRole('heading', { name: 'Ad data' })).toBeTruthy();
    await screen.findByText('Alice');
    expect(rowOf('Alice').getByText('$120.00')).toBeTruthy();
    expect(rowOf('Bob').getByText('$80.50')).toBeTruthy();
    const totals = within(screen.getByTestId('totals-row'));
    // 120.00 + 80.50; CTR of the total from the summed clicks and impressions (250 / 15000), never averaged.
    expect(totals.getByText('$200.50')).toBeTruthy();
    expect(totals.getByText('15,000')).toBeTruthy();
    expect(totals.getByText('1.67%')).toBeTruthy();
    const body = api.lastBody('/ad-reports/list') as Record<string, unknown>;
    expect(body.level).toBe('optimizer');
    expect(body.date_from).toBe(body.date_to);
    // The list asks for the columns it shows (the server computes only those).
    const shown = METRIC_KEYS.filter((k) => metrics[k].defaultVisible);
    expect(body.columns).toEqual(shown);
    expect(screen.getByTestId('as-of').textContent).toMatch(/Data as of/);
    // The export is what the table shows: its level, range, filters and the visible metric columns in order.
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await waitFor(() => expect(api.lastBody('/ad-reports/export')).toMatchObject({ level: 'optimizer', date_from: body.date_from, columns: shown }));
    // Hiding a column asks again without it; showing one asks again with it.
    await user.click(screen.getByRole('button', { name: /Columns/ }));
    const chooser = within(await screen.findByTestId('column-chooser'));
    await user.click(chooser.getByLabelText('Impressions'));
    await waitFor(() => expect((api.lastBody('/ad-reports/list') as Record<string, unknown>).columns).toEqual(shown.filter((k) => k !== 'impressions')));
    await user.click(chooser.getByLabelText('Payers'));
    await waitFor(() => expect((api.lastBody('/ad-reports/list') as Record<string, unknown>).columns).toContain('payers'));
  });

  it('compares with the previous period: change in % coloured by whether up is good, kept in the URL', async () => {
    const { api, user, router } = setup(<OptimizerReportPage />, '/advertising/user?date_from=2026-11-18&date_to=2026-11-24');
    await screen.findByText('Alice');
    await user.click(screen.getByRole('switch', { name: 'Compare with previous period' }));
    await waitFor(() => expect((api.lastBody('/ad-reports/list') as { compare?: boolean }).compare).toBe(true));
    expect(router.state.location.search).toContain('compare=true');
    expect(router.state.location.search).toContain('date_from=2026-11-18');
    const alice = rowOf('Alice');
    // Impressions 8,000 → 10,000: +25 %, good (green).
    const impressions = await waitFor(() => alice.getAllByTestId('change-impressions')[0]!);
    expect(impressions.textContent).toBe('+25.0%');
    expect(impressions.className).toContain('success');
    // CPM 1.25 → 1.20 per thousand: down is good for a cost.
    const cpm = alice.getAllByTestId('change-cpm')[0]!;
    expect(cpm.textContent).toBe('-4.0%');
    expect(cpm.className).toContain('success');
    expect(screen.getByTestId('previous-range').textContent).toContain('2026-11-17');
  });

  it('drills from an optimizer to their ad accounts with the range kept, and shows breadcrumbs there', async () => {
    const { user, router } = setup(<OptimizerReportPage />, '/advertising/user?date_from=2026-11-18&date_to=2026-11-24&platform=dj');
    await user.click(await screen.findByRole('link', { name: 'Alice' }));
    const next = new URLSearchParams(router.state.location.search);
    expect(router.state.location.pathname).toBe('/advertising/account');
    expect(next.get('owner_user_id')).toBe('5');
    expect(next.get('owner_name')).toBe('Alice');
    expect(next.get('date_from')).toBe('2026-11-18');
    expect(next.get('platform')).toBe('dj');
  });

  it('opens a drill-down link: the parent filters the rows and the breadcrumbs lead back', async () => {
    const { api } = setup(<AccountReportPage />, '/advertising/account?owner_user_id=5&owner_name=Alice&date_from=2026-11-18&date_to=2026-11-24');
    await screen.findByText('US Drama 01');
    expect(api.lastBody('/ad-reports/list')).toMatchObject({ level: 'account', owner_user_id: 5, date_from: '2026-11-18' });
    const crumbs = within(screen.getByTestId('report-breadcrumbs'));
    expect(crumbs.getByRole('link', { name: 'Ad data' }).getAttribute('href')).toBe('/advertising/user?date_from=2026-11-18&date_to=2026-11-24');
    expect(crumbs.getByText('Alice')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'US Drama 01' }).getAttribute('href')).toContain('/advertising/campaign?');
  });
});

describe('ad data operations', { timeout: 60_000 }, () => {
  it('pauses two ad sets after a confirmation that lists the change, and shows the failure with its reason', async () => {
    const { api, user } = setup(<AdsetReportPage />, '/advertising/group?campaign_id=21&campaign_name=Spring', { rows, failing: { 32: 'The ad account is disabled: its payment failed' } });
    await screen.findByText('US set A');
    await user.click(screen.getByRole('checkbox', { name: 'Select "US set A"' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select "JP set B"' }));
    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /Pause/ }));
    const dialog = await findDialog('Pause 2 × Ad set');
    const preview = await dialog.findByTestId('op-preview');
    expect(within(preview).getAllByText('Status: Active → Paused')).toHaveLength(2);
    // Nothing was sent but the dry run.
    expect(api.bodies('/ad-ops/apply')).toEqual([{ level: 'adset', ids: [31, 32], action: 'pause', dry_run: true }]);
    await user.click(dialog.getByRole('button', { name: 'Confirm (2)' }));
    const results = await dialog.findByTestId('op-results');
    expect(dialog.getByText('1 succeeded, 1 failed')).toBeTruthy();
    expect(within(results).getByText('The ad account is disabled: its payment failed')).toBeTruthy();
    expect(api.lastBody('/ad-ops/apply')).toEqual({ level: 'adset', ids: [31, 32], action: 'pause' });
    await user.click(dialog.getByRole('button', { name: 'Done' }));
    // The table keeps each row's result.
    await waitFor(() => expect(rowOf('JP set B').getByText('The ad account is disabled: its payment failed')).toBeTruthy());
  });

  it('edits a JPY budget in whole yen and warns when the hour’s budget changes are used', async () => {
    const { api, user } = setup(<AdsetReportPage />, '/advertising/group?campaign_id=21', { rows, refusing: { 32: 'JP set B: 4 budget changes in the last hour; next at 04:10 UTC' } });
    await screen.findByText('JP set B');
    await user.click(screen.getByRole('button', { name: 'More actions for "JP set B"' }));
    await user.click(await screen.findByText('Edit budget'));
    const dialog = await findDialog('Budget of 1 × Ad set');
    expect(dialog.getByText('Current budget of "JP set B": JPY 3,000 / day')).toBeTruthy();
    const amount = dialog.getByLabelText('New budget (JPY)');
    await user.clear(amount);
    await user.type(amount, '4500');
    await user.click(dialog.getByRole('button', { name: 'Next: review the changes' }));
    const preview = await dialog.findByTestId('op-preview');
    expect(within(preview).getByText('JP set B: 4 budget changes in the last hour; next at 04:10 UTC')).toBeTruthy();
    expect(api.lastBody('/ad-ops/apply')).toEqual({ level: 'adset', ids: [32], action: 'budget', daily_budget: 4500, dry_run: true });
    // Refused by the dry run: nothing to confirm.
    expect(dialog.getByRole('button', { name: 'Confirm (0)' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('budget changes of the hour, before sending', { timeout: 60_000 }, () => {
  const next = '2026-11-24T04:10:00.000Z';
  const frees = '2026-11-24T04:25:00.000Z';

  it('says in the form which ad sets used their four changes and when they may change again, and warns of the hour’s last one', async () => {
    const { api, user } = setup(<AdsetReportPage />, '/advertising/group?campaign_id=21', {
      rows,
      budgetChanges: { 31: { used: 3, frees_at: frees }, 32: { used: 4, next_change_at: next, frees_at: next } },
      refusing: { 32: 'JP set B: 4 budget changes in the last hour' },
    });
    await screen.findByText('US set A');
    await user.click(screen.getByRole('checkbox', { name: 'Select "US set A"' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select "JP set B"' }));
    await user.click(within(screen.getByTestId('selection-bar')).getByRole('button', { name: /budget/i }));
    const dialog = await findDialog('Budget of 2 × Ad set');
    const hour = within(await dialog.findByTestId('budget-hour'));
    expect(await hour.findByText(`These ad sets had their 4 budget changes this hour and will not change now: "JP set B" may change again after ${formatDateTime(next)}`)).toBeTruthy();
    expect(hour.getByText(`For these ad sets this is the last change of the hour; the next must wait: "US set A" next after ${formatDateTime(frees)}`)).toBeTruthy();
    expect(api.lastBody('/ad-ops/budget_changes')).toEqual({ ids: [31, 32] });
    // One of them may still change: the review goes on, the refused one is left out of the act.
    await user.type(dialog.getByLabelText(/New budget/), '50');
    await user.click(dialog.getByRole('button', { name: 'Next: review the changes' }));
    await dialog.findByTestId('op-preview');
    await user.click(dialog.getByRole('button', { name: 'Confirm (1)' }));
    await dialog.findByTestId('op-results');
    expect(api.lastBody('/ad-ops/apply')).toEqual({ level: 'adset', ids: [31], action: 'budget', daily_budget: 50 });
  });

  it('blocks the edit when the only ad set may not change again this hour, and shows the count otherwise', async () => {
    const { api, user } = setup(<AdsetReportPage />, '/advertising/group?campaign_id=21', { rows, budgetChanges: { 32: { used: 4, next_change_at: next, frees_at: next }, 31: { used: 1, frees_at: frees } } });
    await screen.findByText('JP set B');
    await user.click(screen.getByRole('button', { name: 'More actions for "JP set B"' }));
    await user.click(await screen.findByText('Edit budget'));
    const dialog = await findDialog('Budget of 1 × Ad set');
    expect(await dialog.findByText('None of these ad sets may change its budget again this hour')).toBeTruthy();
    expect(dialog.getByText('Budget changed 4 of 4 times this hour')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Next: review the changes' }).hasAttribute('disabled')).toBe(true);
    expect(api.bodies('/ad-ops/apply')).toEqual([]);
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'More actions for "US set A"' }));
    // The first row's menu stays in the page, hidden: the newest is this row's.
    await user.click((await screen.findAllByText('Edit budget')).at(-1)!);
    const other = await findDialog('Budget of 1 × Ad set');
    expect(await other.findByText('Budget changed 1 of 4 times this hour')).toBeTruthy();
    expect(other.queryByRole('alert')).toBeNull();
    expect(other.getByRole('button', { name: 'Next: review the changes' }).hasAttribute('disabled')).toBe(false);
  });
});

describe('copy to another ad account', { timeout: 60_000 }, () => {
  it('picks an account of the scope (currency shown), its campaign and pixel; confirms what will be created with the conversion; follows the task’s log rows', async () => {
    const copyRows: MockReportRow[] = [
      ...rows,
      { level: 'ad', row: { id: 41, name: 'US ad 1', platform_id: '2386001', ad_account: account, status: 'ACTIVE', effective_status: 'ACTIVE' }, facts: {}, parents: { ad_account_id: 11, campaign_id: 21, adset_id: 31 } },
      { level: 'campaign', row: { id: 51, name: 'JP launch', platform_id: '2484001', ad_account: jpAccount, status: 'PAUSED', effective_status: 'PAUSED', budget_level: 'adset', currency: 'JPY' }, facts: {}, parents: { ad_account_id: 12 } },
    ];
    const copyAccounts = [
      { id: 12, name: 'JP Drama', platform_id: 'act_222', currency: 'JPY', reachable: true, pixels: [{ platform_id: '555001', name: 'JP pixel' }] },
      { id: 13, name: 'EU Drama', platform_id: 'act_333', currency: 'EUR', reachable: false },
    ];
    const { api, user } = setup(<AdsetReportPage />, '/advertising/group?campaign_id=21', { rows: copyRows, copyAccounts });
    await screen.findByText('US set A');
    await user.click(screen.getByRole('button', { name: 'More actions for "US set A"' }));
    await user.click(await screen.findByText('Copy'));
    const dialog = await findDialog('Copy 1 × Ad set');

    // Only the accounts of the scope, with their currency; one no token reaches cannot be chosen.
    await user.click(dialog.getByLabelText('Into ad account'));
    expect((await screen.findByTitle('EU Drama (act_333) · EUR · no valid token')).getAttribute('aria-disabled')).toBe('true');
    await user.click(await screen.findByTitle('JP Drama (act_222) · JPY'));
    expect(await dialog.findByText(/created anew in the chosen account/)).toBeTruthy();
    expect(dialog.getByLabelText('Daily budget (JPY)')).toBeTruthy();
    // The target's campaign is required, then chosen among that account's campaigns; the pixel among its pixels.
    await user.click(dialog.getByRole('button', { name: 'Next: review the changes' }));
    expect(await dialog.findByText('Choose the Campaign of the target account')).toBeTruthy();
    await user.click(dialog.getByLabelText('Into campaign'));
    await user.click(await screen.findByTitle('JP launch (2484001)'));
    await waitFor(() => expect(api.bodies('/ad-reports/list')).toContainEqual(expect.objectContaining({ level: 'campaign', ad_account_ids: [12] })));
    await user.click(dialog.getByLabelText('Pixel (usable by JP Drama)'));
    await user.click(await screen.findByTitle('JP pixel (555001)'));
    await user.click(dialog.getByRole('button', { name: 'Next: review the changes' }));

    // The confirmation: every object to create, before → after, and the conversion.
    const preview = await dialog.findByTestId('copy-preview');
    expect(within(preview).getByText('2 objects will be created; 0 will not (see why below)')).toBeTruthy();
    expect(within(preview).getByText('Daily budget: USD 20.00 → JPY 3,000')).toBeTruthy();
    expect(within(preview).getAllByText('Ad account: act_111 → act_222')).toHaveLength(2);
    expect(within(preview).getByText('Pixel: 555001')).toBeTruthy();
    expect(within(dialog.getByTestId('copy-notes')).getByText(/Budgets converted from USD to JPY/)).toBeTruthy();
    expect(within(dialog.getByTestId('copy-notes')).getByText(/ep1\.mp4/)).toBeTruthy();
    const sent = { level: 'adset', ids: [31], copies: 1, status: 'PAUSED', target_ad_account_id: 12, parent_id: 51, pixel_id: '555001' };
    expect(api.lastBody('/ad-ops/copy')).toEqual({ ...sent, dry_run: true });

    // The act is a task; its rows fill in from the log of its batch.
    await user.click(dialog.getByRole('button', { name: 'Copy (2)' }));
    const task = await dialog.findByTestId('copy-task');
    expect(api.lastBody('/ad-ops/copy')).toEqual(sent);
    expect(await within(task).findByText('Copied: 3 created, 0 failed')).toBeTruthy();
    const done = await within(task).findByTestId('op-results');
    expect(within(done).getAllByText('Done')).toHaveLength(2);
    expect(within(done).getByText('US ad 1')).toBeTruthy();
    expect(api.bodies('/ad-operations/list')).toContainEqual(expect.objectContaining({ batch_id: COPY_BATCH }));
  });
});

describe('admin advertising', { timeout: 60_000 }, () => {
  it('lets the super admin switch ad sets on and off across the company, and offers nothing else', async () => {
    const backend = adDataBackend({ rows });
    const api = mockApi({ ...assetsBackend({}).handlers, ...backend.handlers });
    const { user } = renderScreen(<AdminAdsetPage />, { url: '/admin/advertising/group', user: superAdmin });
    await screen.findByText('US set A');
    expect(screen.getByRole('switch', { name: 'Switch "US set A" on or off' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'More actions for "US set A"' })).toBeNull();
    // Company-wide: the ad account column is shown; no "sync now" in the admin area.
    expect(rowOf('JP set B').getByText('JP Drama')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Sync now/ })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Select "US set A"' }));
    const bar = within(screen.getByTestId('selection-bar'));
    expect(bar.getByRole('button', { name: /Pause/ })).toBeTruthy();
    expect(bar.queryByRole('button', { name: /Copy|Delete|budget/ })).toBeNull();
    expect(api.lastBody('/ad-reports/list')).toMatchObject({ level: 'adset' });
  });
});

describe('campaign details', { timeout: 60_000 }, () => {
  it('shows one campaign’s settings, its ad sets and ads as a tree, and its operation log', async () => {
    const detailRows: MockReportRow[] = [
      ...rows,
      { level: 'campaign', row: { id: 21, name: 'Spring', platform_id: '2384001', ad_account: account, status: 'ACTIVE', effective_status: 'ACTIVE', budget_level: 'campaign', daily_budget_minor: 10000, currency: 'USD', owner: { id: 5, name: 'Alice' } }, facts: { spend_usd_cents: 7000 }, parents: { ad_account_id: 11 } },
      { level: 'ad', row: { id: 41, name: 'US ad 1', platform_id: '2386001', ad_account: account, status: 'ACTIVE', effective_status: 'ACTIVE' }, facts: { spend_usd_cents: 5000 }, parents: { ad_account_id: 11, campaign_id: 21, adset_id: 31 } },
    ];
    const operations = [buildOperation({ id: 9, action: 'pause', level: 'ad', object_name: 'US ad 1', before: { status: 'ACTIVE' }, after: { status: 'PAUSED' } })];
    const backend = adDataBackend({ rows: detailRows, operations });
    const api = mockApi({ ...assetsBackend({}).handlers, ...backend.handlers });
    renderScreen(<CampaignDetailsPage />, { url: '/admin/advertising/details?id=21', user: superAdmin });
    expect(await screen.findByRole('heading', { name: /Campaign details/ })).toBeTruthy();
    expect(screen.getByText('USD 100.00 / day')).toBeTruthy();
    expect(screen.getByText('US Drama 01 (USD, America/Los_Angeles)')).toBeTruthy();
    await screen.findByText('US set A');
    expect(await screen.findByText('US ad 1', { selector: '.ant-tree *' })).toBeTruthy();
    expect(await screen.findByText('Status: Active → Paused')).toBeTruthy();
    expect(api.bodies('/ad-operations/list')).toContainEqual(expect.objectContaining({ campaign_id: 21 }));
  });
});

describe('operation logs', { timeout: 60_000 }, () => {
  it('lists acts with before → after and the reason of a failure, filters by result and exports', async () => {
    const operations = [
      buildOperation({ id: 1, action: 'pause', object_name: 'Ad 7', before: { status: 'ACTIVE' }, after: { status: 'PAUSED' } }),
      buildOperation({ id: 2, action: 'budget', level: 'adset', object_name: 'Set 3', before: { daily_budget_minor: 2000, currency: 'USD' }, after: { daily_budget_minor: 3000, currency: 'USD' }, result: 'failed', error: 'Too many budget changes this hour' }),
    ];
    const { api, user, router } = setup(<CopyLogPage />, '/advertising/copy-log', { rows: [], operations });
    await screen.findByText('Ad 7');
    expect(rowOf('Ad 7').getByText('Status: Active → Paused')).toBeTruthy();
    expect(rowOf('Set 3').getByText('Daily budget: USD 20.00 → USD 30.00')).toBeTruthy();
    expect(rowOf('Set 3').getByText('Too many budget changes this hour')).toBeTruthy();
    const filters = within(screen.getByRole('form', { name: 'filters' }));
    await user.click(filters.getByLabelText('Result'));
    await user.click(await screen.findByTitle('Failed'));
    await waitFor(() => expect(api.lastBody('/ad-operations/list')).toMatchObject({ log: 'all', result: 'failed' }));
    expect(router.state.location.search).toContain('result=failed');
    await waitFor(() => expect(screen.queryByText('Ad 7')).toBeNull());
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await waitFor(() => expect(api.lastBody('/ad-operations/export')).toMatchObject({ log: 'all', result: 'failed', columns: ['time', 'by', 'action', 'object', 'account', 'change', 'result'] }));
    // The export holds exactly the shown columns.
    await user.click(screen.getByRole('button', { name: /Columns/ }));
    await user.click(within(await screen.findByTestId('column-chooser')).getByLabelText('Before → after'));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Before → after' })).toBeNull());
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await waitFor(() => expect((api.lastBody('/ad-operations/export') as { columns: string[] }).columns).toEqual(['time', 'by', 'action', 'object', 'account', 'result']));
  });
});
