import type { StartTask } from '@ads/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import StartPage from './start-page';

const task = (over: Partial<StartTask>): StartTask => ({
  id: 1,
  action: 'activate',
  status: 'success',
  start_at: null,
  zone: null,
  local: null,
  campaigns: 2,
  schemes: [],
  created_by: { id: 1, name: 'manager' },
  queued_at: '2026-11-01T08:00:00.000Z',
  finished_at: '2026-11-01T08:00:05.000Z',
  ok: 1,
  failed: 1,
  message: '1 could not be switched on (1 did)',
  error: null,
  on_task_id: null,
  ...over,
});

describe('start management', { timeout: 30_000 }, () => {
  it('lists tasks with results per object and cancels a pending one after confirming', async () => {
    let tasks = [task({ id: 7, status: 'queued', start_at: '2026-11-03T00:00:00.000Z', zone: 'Asia/Tokyo', local: '2026-11-03T09:00', ok: 0, failed: 0, message: null, schemes: [{ id: 3, name: 'Moonlit scheme' }], campaigns: 0 }), task({ id: 6 })];
    const api = mockApi({
      '/start-tasks/list': () => ({ list: tasks, total: tasks.length }),
      '/start-tasks/results': ({ id }) => ({
        list:
          id === 6
            ? [
                { id: 1, object_id: 5, object_platform_id: '120001', object_name: 'Camp A', ad_account: { id: 1, name: 'US 01' }, result: 'ok', error: null, created_at: '2026-11-01T08:00:01.000Z' },
                { id: 2, object_id: 6, object_platform_id: '120002', object_name: 'Camp B', ad_account: { id: 1, name: 'US 01' }, result: 'failed', error: 'The ad account is disabled', created_at: '2026-11-01T08:00:02.000Z' },
              ]
            : [],
      }),
      '/start-tasks/cancel': ({ id }) => {
        tasks = tasks.map((t) => (t.id === id ? { ...t, status: 'cancelled' } : t));
        return { cancelled: true };
      },
    });
    const { user } = renderScreen(<StartPage />, { url: '/advertising/start' });
    expect(await screen.findByText('Moonlit scheme')).toBeTruthy();
    expect(screen.getByText('2026-11-03T09:00'.replace('T', ' ') + ' Asia/Tokyo')).toBeTruthy();
    // Only the pending task can be cancelled.
    expect(screen.getAllByRole('button', { name: /^Cancel #/ })).toHaveLength(1);

    await user.click(rowOf('#6').getByRole('button', { name: '1 ok · 1 failed' }));
    const drawer = await findDialog('Results');
    expect(await drawer.findByText('The ad account is disabled')).toBeTruthy();
    expect(drawer.getByText('Camp A')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cancel #7' }));
    const confirm = await findDialog('Cancel task #7?');
    await user.click(confirm.getByRole('button', { name: /OK|Confirm/ }));
    await waitFor(() => expect(api.bodies('/start-tasks/cancel')).toEqual([{ id: 7 }]));
    await waitFor(() => expect(screen.queryAllByRole('button', { name: /^Cancel #/ })).toHaveLength(0));
  });

  it('picks campaigns and queues a start now, after confirming', async () => {
    const api = mockApi({
      '/start-tasks/list': () => ({ list: [], total: 0 }),
      '/start-tasks/campaigns': () => ({
        list: [
          { id: 11, name: 'Camp US', platform_id: '1201', status: 'PAUSED', effective_status: 'PAUSED', ad_account: { id: 1, name: 'US 01', timezone_name: 'America/Los_Angeles' }, scheme: null },
          { id: 12, name: 'Camp JP', platform_id: '1202', status: 'PAUSED', effective_status: 'PAUSED', ad_account: { id: 2, name: 'JP 01', timezone_name: 'Asia/Tokyo' }, scheme: { id: 3, name: 'Moonlit' } },
        ],
        total: 2,
      }),
      '/start-tasks/create': () => ({ task_ids: [21] }),
    });
    const { user } = renderScreen(<StartPage />, { url: '/advertising/start?tab=create' });
    const submit = await screen.findByRole('button', { name: 'Create start tasks' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.click(await screen.findByRole('checkbox', { name: 'Camp JP' }));
    expect(screen.getByText('1 selected')).toBeTruthy();
    await user.click(submit);
    const confirm = await findDialog('Switch on 1 objects?');
    expect(confirm.getByText(/spending budget at once/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: /OK|Confirm/ }));
    await waitFor(() => expect(api.bodies('/start-tasks/create')).toEqual([{ campaign_ids: [12], scheme_ids: [], on: { mode: 'now' }, off: null }]));
    expect(await screen.findByText('No start tasks yet')).toBeTruthy();
  });
});
