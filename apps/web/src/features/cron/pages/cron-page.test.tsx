import { ADMIN_PATHS, IS_ADMIN_SUPER } from '@ads/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cronBackend, buildCronJob, buildJobRun } from '@/testing/cron-backend';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi, MockRefusal } from '@/testing/mock-api';
import { manager, renderScreen } from '@/testing/render';
import CronPage from './cron-page';

const root = { ...manager, id: 2, account: 'admin', name: 'Root', is_admin: IS_ADMIN_SUPER, paths: [...ADMIN_PATHS] };

const cleanup = buildCronJob({
  last_run: { status: 'success', started_at: '2026-03-01T03:17:00.000Z', finished_at: '2026-03-01T03:17:04.200Z', duration_ms: 4200, message: '12 sessions removed' },
});
const report = buildCronJob({
  name: 'daily-report',
  title: 'Daily report',
  description: 'Builds the daily report.',
  schedule: '30 6 * * 1-5',
  default_schedule: '0 * * * *',
  overridden: true,
  updated_by_name: 'Root',
  updated_at: '2026-03-01T08:00:00.000Z',
  next_run_at: '2026-03-02T06:30:00.000Z',
  last_run: { status: 'failed', started_at: '2026-03-01T06:30:00.000Z', finished_at: '2026-03-01T06:30:01.000Z', duration_ms: 850, message: 'Token expired' },
});
const manual = buildCronJob({ name: 'sync-all', title: 'Sync everything', description: '', schedule: null, default_schedule: null, next_run_at: null, last_run: null });

const runs = [
  buildJobRun({ id: 11, job_name: 'cleanup-sessions', status: 'success', message: '12 sessions removed', duration_ms: 4200, started_at: '2026-03-01T03:17:00.000Z', finished_at: '2026-03-01T03:17:04.200Z' }),
  buildJobRun({ id: 12, job_name: 'daily-report', title: 'Daily report', status: 'failed', error: 'Token expired\n  at fetchInsights', duration_ms: 850, summary: { rows: 3 } }),
  buildJobRun({ id: 13, job_name: 'sync-all', title: 'Sync everything', status: 'running', trigger: 'manual', created_by_name: 'Root', finished_at: null, duration_ms: null, progress_done: 2, progress_total: 5 }),
];

function setup({ url = '/admin/sys/cron', jobs = [cleanup, report, manual], overrides = {} }: { url?: string; jobs?: ReturnType<typeof buildCronJob>[]; overrides?: Parameters<typeof mockApi>[0] } = {}) {
  const backend = cronBackend({ jobs, runs });
  const api = mockApi({ ...backend.handlers, ...overrides });
  const view = renderScreen(<CronPage />, { url, user: root });
  return { ...view, api, backend };
}

const search = (router: ReturnType<typeof setup>['router']) => Object.fromEntries(new URLSearchParams(router.state.location.search));

describe('cron page', { timeout: 60_000 }, () => {
  it('lists every job with its schedule in words, switch, last and next run', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Scheduled tasks' })).toBeTruthy();
    await screen.findByText('Clean up sessions and old records');
    expect(api.count('/sys-cron/list')).toBe(1);

    const first = rowOf('Clean up sessions and old records');
    expect(first.getByText('17 3 * * *')).toBeTruthy();
    expect(first.getByText(/At 03:17 \(UTC\)/)).toBeTruthy();
    expect(first.getByText('Succeeded')).toBeTruthy();
    expect(first.getByText('4.2 s')).toBeTruthy();
    expect(first.getByText('12 sessions removed')).toBeTruthy();
    expect((first.getByRole('switch', { name: '"Clean up sessions and old records" runs on schedule' }) as HTMLButtonElement).getAttribute('aria-checked')).toBe('true');

    const second = rowOf('Daily report');
    expect(second.getByText(/At 06:30, Monday through Friday \(UTC\)/)).toBeTruthy();
    expect(second.getByText('Changed')).toBeTruthy();
    expect(second.getByText('Failed')).toBeTruthy();
    expect(second.getByText('Token expired')).toBeTruthy();
    expect(second.getByRole('button', { name: 'Reset to default' })).toBeTruthy();
    expect(first.queryByRole('button', { name: 'Reset to default' })).toBeNull();

    const third = rowOf('Sync everything');
    expect(third.getByText('On demand only')).toBeTruthy();
    expect(third.getByText('Never run')).toBeTruthy();
    expect(third.getByText('Does not run on its own')).toBeTruthy();
  });

  it('says so when no job is registered, and offers a retry when the list fails', async () => {
    let fail = true;
    setup({ jobs: [], overrides: { '/sys-cron/list': () => (fail ? new MockRefusal('Database unavailable') : { list: [], total: 0 }) } });
    expect(await screen.findByText('Failed to load')).toBeTruthy();
    fail = false;
    screen.getByRole('button', { name: 'Retry' }).click();
    expect(await screen.findByText('No scheduled job is registered')).toBeTruthy();
  });

  it('checks a new schedule as typed, reads it back and saves it', async () => {
    const { api, user } = setup();
    await screen.findByText('Daily report');
    await user.click(rowOf('Clean up sessions and old records').getByRole('button', { name: 'Edit schedule' }));
    const modal = await findDialog('Edit schedule: Clean up sessions and old records');
    const input = modal.getByLabelText('Cron expression');
    expect((input as HTMLInputElement).value).toBe('17 3 * * *');

    await user.clear(input);
    await user.type(input, '61 * * * *');
    expect(await modal.findByText('The minute field is not valid')).toBeTruthy();
    await user.clear(input);
    await user.type(input, '* * *');
    expect(await modal.findByText('Use five fields: minute hour day month weekday')).toBeTruthy();
    await user.click(modal.getByRole('button', { name: 'Save' }));
    expect(api.count('/sys-cron/update')).toBe(0);

    await user.clear(input);
    await user.type(input, ' */10  * * * 1-5 ');
    const preview = within(modal.getByTestId('schedule-preview'));
    expect(await preview.findByText('Every 10 minutes, Monday through Friday (UTC)')).toBeTruthy();
    expect(preview.getAllByRole('listitem')).toHaveLength(3);
    await user.click(modal.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.lastBody('/sys-cron/update')).toEqual({ name: 'cleanup-sessions', schedule: '*/10 * * * 1-5' }));
    expect(await screen.findByText('Schedule of "Clean up sessions and old records" updated')).toBeTruthy();
    await waitFor(() => expect(rowOf('Clean up sessions and old records').getByText('*/10 * * * 1-5')).toBeTruthy());
  });

  it('fills a schedule from the common choices, and takes the default typed back as "follow the default"', async () => {
    const { api, user } = setup();
    await screen.findByText('Daily report');
    await user.click(rowOf('Daily report').getByRole('button', { name: 'Edit schedule' }));
    const modal = await findDialog('Edit schedule: Daily report');
    await user.click(modal.getByText('Every 15 minutes'));
    expect((modal.getByLabelText('Cron expression') as HTMLInputElement).value).toBe('*/15 * * * *');
    await user.click(modal.getByRole('button', { name: 'Use default' }));
    expect((modal.getByLabelText('Cron expression') as HTMLInputElement).value).toBe('0 * * * *');
    expect(await modal.findByText(/Same as the default/)).toBeTruthy();
    await user.click(modal.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.lastBody('/sys-cron/update')).toEqual({ name: 'daily-report', schedule: null }));
  });

  it('shows the server refusal of a schedule on the field', async () => {
    const { user } = setup({
      overrides: { '/sys-cron/update': () => new MockRefusal('Invalid schedule', { errors: [{ field: 'schedule', message: 'Invalid schedule: use 5 cron fields (server)' }] }) },
    });
    await screen.findByText('Daily report');
    await user.click(rowOf('Daily report').getByRole('button', { name: 'Edit schedule' }));
    const modal = await findDialog('Edit schedule: Daily report');
    const input = modal.getByLabelText('Cron expression');
    await user.clear(input);
    await user.type(input, '0 0 L * *');
    expect(await within(modal.getByTestId('schedule-preview')).findByText('At 00:00, on the last day of the month (UTC)')).toBeTruthy();
    await user.click(modal.getByRole('button', { name: 'Save' }));
    expect(await modal.findByText('Invalid schedule: use 5 cron fields (server)')).toBeTruthy();
  });

  it('resets a changed schedule to the default after confirmation', async () => {
    const { api, user } = setup();
    await screen.findByText('Daily report');
    await user.click(rowOf('Daily report').getByRole('button', { name: 'Reset to default' }));
    const confirm = await findDialog('Reset "Daily report" to its default schedule?');
    expect(confirm.getByText(/30 6 \* \* 1-5 goes back to the default 0 \* \* \* \* \(Every hour\)/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(api.lastBody('/sys-cron/update')).toEqual({ name: 'daily-report', schedule: null }));
    await waitFor(() => expect(rowOf('Daily report').queryByText('Changed')).toBeNull());
  });

  it('switches a job off and on only after confirmation', async () => {
    const { api, user } = setup();
    await screen.findByText('Daily report');
    const toggle = () => rowOf('Daily report').getByRole('switch');
    await user.click(toggle());
    let confirm = await findDialog('Stop running "Daily report" on schedule?');
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(api.count('/sys-cron/update')).toBe(0);
    expect(toggle().getAttribute('aria-checked')).toBe('true');

    await user.click(toggle());
    confirm = await findDialog('Stop running "Daily report" on schedule?');
    await user.click(confirm.getByRole('button', { name: 'Switch off' }));
    await waitFor(() => expect(api.lastBody('/sys-cron/update')).toEqual({ name: 'daily-report', enabled: false }));
    await waitFor(() => expect(toggle().getAttribute('aria-checked')).toBe('false'));
    expect(rowOf('Daily report').getByText('Switched off, does not run on its own')).toBeTruthy();

    await user.click(toggle());
    confirm = await findDialog('Run "Daily report" on schedule?');
    expect(confirm.getByText(/It will run on its own at 30 6 \* \* 1-5 \(At 06:30, Monday through Friday \(UTC\)\)/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Switch on' }));
    await waitFor(() => expect(api.lastBody('/sys-cron/update')).toEqual({ name: 'daily-report', enabled: true }));
  });

  it('runs a job now and follows the run until it ends', async () => {
    const { api, user, backend } = setup();
    await screen.findByText('Daily report');
    await user.click(rowOf('Sync everything').getByRole('button', { name: 'Run now' }));
    await user.click((await findDialog('Run "Sync everything" now?')).getByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(api.lastBody('/sys-cron/run_now')).toEqual({ name: 'sync-all' }));
    const id = backend.db.runs.at(-1)!.id;
    expect(await screen.findByText(`Queued: Sync everything (run #${id})`)).toBeTruthy();
    await waitFor(() => expect(rowOf('Sync everything').getByText('Queued')).toBeTruthy());

    backend.advance(id, { status: 'running', started_at: new Date().toISOString() });
    await waitFor(() => expect(rowOf('Sync everything').getByText('Running')).toBeTruthy());
    backend.advance(id, { status: 'success', finished_at: new Date(Date.now() + 1500).toISOString(), duration_ms: 1500, message: 'All synced' });
    expect(await screen.findByText(/"Sync everything" finished: Succeeded in/)).toBeTruthy();
    await waitFor(() => expect(rowOf('Sync everything').getByText('All synced')).toBeTruthy());
    expect(api.count('/tasks/get')).toBeGreaterThan(0);
  });

  it('opens the run history of one job from its row, kept in the URL', async () => {
    const { api, user, router } = setup();
    await screen.findByText('Daily report');
    await user.click(rowOf('Daily report').getByRole('button', { name: 'Runs' }));
    await waitFor(() => expect(api.lastBody('/sys-cron/runs')).toEqual({ page: 1, page_size: 20, name: 'daily-report' }));
    expect(search(router)).toEqual({ tab: 'runs', name: 'daily-report' });
    const row = await waitFor(() => rowOf('#12'));
    expect(row.getByText('Failed')).toBeTruthy();
    expect(row.getByText('850 ms')).toBeTruthy();
    expect(screen.queryByText('#11')).toBeNull();

    // The row opens to the whole error.
    await user.click(row.getByRole('button', { name: /expand/i }));
    const details = within(await screen.findByTestId('run-details-12'));
    expect(details.getByText(/at fetchInsights/)).toBeTruthy();
  });

  it('filters, sorts and pages the whole history on the server', async () => {
    const { api, user, router } = setup({ url: '/admin/sys/cron?tab=runs' });
    await screen.findByText('#13');
    expect(api.bodies('/sys-cron/runs')[0]).toEqual({ page: 1, page_size: 20 });
    const running = rowOf('#13');
    expect(running.getByText('Running')).toBeTruthy();
    expect(running.getByText('Root')).toBeTruthy();

    const filters = within(screen.getByRole('form', { name: 'filters' }));
    await user.click(filters.getByLabelText('Status'));
    await user.click(await screen.findByTitle('Failed'));
    await waitFor(() => expect(api.lastBody('/sys-cron/runs')).toEqual({ page: 1, page_size: 20, status: 'failed' }));
    await waitFor(() => expect(screen.queryByText('#13')).toBeNull());
    expect(search(router)).toEqual({ tab: 'runs', status: 'failed' });

    await user.click(filters.getByRole('button', { name: /Reset/ }));
    await waitFor(() => expect(api.lastBody('/sys-cron/runs')).toEqual({ page: 1, page_size: 20 }));
    await user.click(screen.getAllByText('Started')[0]!);
    await waitFor(() => expect(api.lastBody('/sys-cron/runs')).toEqual({ page: 1, page_size: 20, sort_field: 'started_at', sort_order: 'ascend' }));
  });

  it('says when the history is empty, and when filters match nothing', async () => {
    setup({ url: '/admin/sys/cron?tab=runs&name=no-runs-yet' });
    expect(await screen.findByText('Nothing matches these filters. Try widening them.')).toBeTruthy();
  });

  it('cancels a running run after confirmation', async () => {
    const { api, user } = setup({ url: '/admin/sys/cron?tab=runs' });
    await screen.findByText('#13');
    await user.click(rowOf('#13').getByRole('button', { name: 'Cancel #13' }));
    await user.click((await findDialog('Cancel run #13?')).getByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(api.lastBody('/tasks/cancel')).toEqual({ id: 13 }));
    await waitFor(() => expect(rowOf('#13').getByText('Cancelled')).toBeTruthy());
  });
});
