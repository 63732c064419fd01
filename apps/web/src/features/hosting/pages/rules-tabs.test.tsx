import { ruleTemplate, type RuleFiring } from '@ads/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { assetsBackend } from '@/testing/assets-backend';
import { findDialog, rowOf } from '@/testing/dom';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import { buildChannel, buildRule, rulesBackend } from '@/testing/rules-backend';
import HostingPage from './hosting-page';

const stopLoss = buildRule(1, { ...ruleTemplate('stop_loss', 'en'), name: 'Stop-loss US' }, { last_evaluated_at: '2026-11-24T07:30:00.000Z', last_result: { status: 'ok', checked: 12, acted: 2, failed: 0 } });
const scale = buildRule(2, { ...ruleTemplate('scale_winners', 'en'), name: 'Scale JP', enabled: true, owner_user_id: 2, scope: { type: 'accounts', ad_account_ids: [11] } });

const firing = (id: number, outcome: RuleFiring['outcome']): RuleFiring => ({
  id,
  evaluation_id: 9,
  rule: { id: 1, name: 'Stop-loss US' },
  created_at: '2026-11-24T07:30:00.000Z',
  level: 'ad',
  object: { id: 500 + id, platform_id: `2385${id}`, name: `Ad loser ${id}` },
  ad_account: { id: 11, name: 'US Drama 01', platform_id: 'act_11', timezone_name: 'America/Los_Angeles' },
  action: 'pause',
  outcome,
  values: [
    { metric: 'spend', window: { type: 'today' }, operator: 'gte', threshold: 30, actual: 42.5, met: true },
    { metric: 'purchases', window: { type: 'today' }, operator: 'eq', threshold: 0, actual: 0, met: true },
  ],
  before: { status: 'ACTIVE' },
  after: { status: 'PAUSED' },
  error: outcome === 'failed' ? 'Token expired' : null,
  operation_id: null,
});

function setup(url: string, extra: Parameters<typeof rulesBackend>[0] = {}) {
  const rules = rulesBackend({ rules: [stopLoss, scale], ...extra });
  const assets = assetsBackend({ adAccounts: [] });
  const api = mockApi({ ...assets.handlers, ...rules.handlers });
  const view = renderScreen(<HostingPage />, { url });
  return { ...view, api, db: rules.db };
}

describe('hosting rules screens', { timeout: 60_000 }, () => {
  it('lists the rules with owner, scope, action, schedule and last run, and switches one on after a confirmation', async () => {
    const { api, user, router } = setup('/operation/account');
    await user.click(screen.getByRole('tab', { name: 'Rules' }));
    expect(new URLSearchParams(router.state.location.search).get('view')).toBe('rules');
    const row = await waitFor(() => rowOf('Stop-loss US'));
    expect(row.getByText('Manager')).toBeTruthy();
    expect(row.getByText('All hosted accounts')).toBeTruthy();
    expect(row.getByText('Every 30 min')).toBeTruthy();
    expect(row.getByText('Pause')).toBeTruthy();
    expect(row.getByText('checked 12 · acted 2 · failed 0')).toBeTruthy();
    // The status filter says "All" while nothing is chosen, like the other lists' filters.
    expect(within(screen.getByRole('combobox', { name: 'Status' }).closest('.ant-select')! as HTMLElement).getByText('All')).toBeTruthy();
    const scaleRow = rowOf('Scale JP');
    expect(scaleRow.getByText('Olivia')).toBeTruthy();
    expect(scaleRow.getByText('1 account(s)')).toBeTruthy();
    expect(scaleRow.getByText('Raise budget +20% (≤ USD 500.00)')).toBeTruthy();
    expect(scaleRow.getByText('Not run yet')).toBeTruthy();

    await user.click(row.getByRole('switch', { name: 'On/off Stop-loss US' }));
    const confirm = await findDialog('Switch on rule "Stop-loss US"?');
    expect(confirm.getByText(/Dry-run it first/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(api.count('/hosting-rules/toggle')).toBe(0);

    await user.click(row.getByRole('switch', { name: 'On/off Stop-loss US' }));
    await user.click((await findDialog('Switch on rule "Stop-loss US"?')).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(api.lastBody('/hosting-rules/toggle')).toEqual({ id: 1, enabled: true }));
    expect(await screen.findByText('Rule switched on')).toBeTruthy();
  });

  it('creates a rule from the stop-loss template, dry-runs it showing the figures, and saves it', async () => {
    const dryRun = {
      evaluated_at: '2026-11-24T08:00:00.000Z',
      data_as_of: '2026-11-24T07:55:00.000Z',
      report_day: '2026-11-24',
      accounts: 1,
      objects_checked: 3,
      matched: 1,
      rows: [
        {
          level: 'ad' as const,
          object: { id: 501, platform_id: '23851', name: 'Ad loser 1' },
          ad_account: { id: 11, name: 'US Drama 01', platform_id: 'act_11', timezone_name: 'America/Los_Angeles' },
          status: 'ACTIVE',
          outcome: 'would_act' as const,
          values: firing(1, 'acted').values,
          before: { status: 'ACTIVE' },
          after: { status: 'PAUSED' },
          reason: null,
        },
      ],
    };
    const { api, user } = setup('/operation/account?view=rules', { dryRun });
    await screen.findByText('Stop-loss US');
    await user.click(screen.getByRole('button', { name: /New rule/ }));
    await user.click(await screen.findByRole('menuitem', { name: /^Stop-loss/ }));
    const editor = await findDialog('New rule');
    expect((editor.getByRole('textbox', { name: 'Rule name' }) as HTMLInputElement).value).toBe('Stop-loss: spend ≥ $30 today, no purchase');
    expect(within(screen.getByTestId('condition-group-0')).getAllByRole('spinbutton', { name: 'Value' }).map((i) => (i as HTMLInputElement).value)).toEqual(['30', '0', '0']);

    await user.click(editor.getByRole('button', { name: /Dry run/ }));
    const result = await findDialog('Dry run: Stop-loss: spend ≥ $30 today, no purchase');
    expect(result.getByText('A dry run only works out what would fire now; it acts on nothing.')).toBeTruthy();
    expect(result.getByText('1 account(s) · 3 object(s) checked · 1 match')).toBeTruthy();
    expect(result.getByText('Would act')).toBeTruthy();
    expect(result.getByText(/Spend（today）42.5 ≥ 30/)).toBeTruthy();
    expect(result.getByText('ACTIVE → PAUSED')).toBeTruthy();
    const sent = api.lastBody('/hosting-rules/dry_run') as { rule: { template: string; action: unknown; stop_loss: unknown; conditions: { groups: { conditions: unknown[] }[] } } };
    expect(sent.rule.template).toBe('stop_loss');
    expect(sent.rule.action).toEqual({ type: 'pause' });
    expect(sent.rule.stop_loss).toMatchObject({ enabled: true, revive: true });
    expect(sent.rule.conditions.groups[0]!.conditions).toHaveLength(3);
    expect(api.count('/hosting-rules/save')).toBe(0);
    expect(api.count('/hosting-rules/toggle')).toBe(0);
    await user.click(result.getByRole('button', { name: 'Close' }));

    await user.click(editor.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.lastBody('/hosting-rules/save')).toMatchObject({ rule: { name: 'Stop-loss: spend ≥ $30 today, no purchase', enabled: false, level: 'ad' } }));
    expect(await screen.findByText('Rule saved')).toBeTruthy();
    expect(await screen.findByText('Stop-loss: spend ≥ $30 today, no purchase')).toBeTruthy();
  });

  it('validates the editor: messages beside the fields, nothing sent until fixed', async () => {
    const { api, user } = setup('/operation/account?view=rules');
    await screen.findByText('Stop-loss US');
    await user.click(screen.getByRole('button', { name: /New rule/ }));
    await user.click(await screen.findByRole('menuitem', { name: /^Blank rule/ }));
    const editor = await findDialog('New rule');
    await user.click(editor.getByRole('button', { name: 'Save' }));
    const issues = await screen.findByTestId('rule-issues');
    expect(within(issues).getByText('Required')).toBeTruthy();
    expect(within(editor.getByRole('textbox', { name: 'Rule name' }).closest('.ant-form-item') as HTMLElement).getByText('Required')).toBeTruthy();
    // Beside the condition's value too.
    expect(within(screen.getByTestId('condition-0-0')).getByText('Required')).toBeTruthy();
    await user.click(editor.getByRole('button', { name: /Dry run/ }));
    expect(api.count('/hosting-rules/save')).toBe(0);
    expect(api.count('/hosting-rules/dry_run')).toBe(0);

    await user.type(editor.getByRole('textbox', { name: 'Rule name' }), 'Budget guard');
    await user.type(within(screen.getByTestId('condition-0-0')).getByRole('spinbutton', { name: 'Value' }), '50');
    // A budget action on ads is refused by the contract's own check.
    await user.click(editor.getByRole('combobox', { name: 'Do' }));
    await user.click(await screen.findByTitle('Lower budget'));
    await user.type(await editor.findByRole('spinbutton', { name: 'By %' }), '20');
    await user.type(editor.getByRole('spinbutton', { name: 'Minimum budget (USD)' }), '50');
    await user.type(editor.getByRole('spinbutton', { name: 'Maximum budget (USD)' }), '10');
    await user.click(editor.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(screen.getByTestId('rule-issues')).getByText('Budget actions apply to campaigns or ad sets only')).toBeTruthy());
    expect(within(screen.getByTestId('rule-issues')).getByText('The maximum budget must not be below the minimum')).toBeTruthy();
    expect(api.count('/hosting-rules/save')).toBe(0);

    await user.click(editor.getByRole('radio', { name: 'Ad set' }));
    await user.clear(editor.getByRole('spinbutton', { name: 'Maximum budget (USD)' }));
    await user.type(editor.getByRole('spinbutton', { name: 'Maximum budget (USD)' }), '200');
    await user.click(editor.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.lastBody('/hosting-rules/save')).toMatchObject({
        rule: { name: 'Budget guard', level: 'adset', action: { type: 'lower_budget', percent: 20, min_usd: 50, max_usd: 200 }, conditions: { groups: [{ conditions: [{ metric: 'spend', operator: 'gte', value: 50, window: { type: 'today' } }] }] } },
      }),
    );
    expect(screen.queryByTestId('rule-issues')).toBeNull();
  });

  it('runs a rule now after a confirmation, follows its task, and opens its history', async () => {
    const { api, user, router } = setup('/operation/account?view=rules', { firings: [firing(1, 'acted')] });
    await screen.findByText('Stop-loss US');
    await user.click(rowOf('Stop-loss US').getByRole('button', { name: 'Run now Stop-loss US' }));
    const confirm = await findDialog('Run rule "Stop-loss US" now?');
    expect(confirm.getByText(/refreshes today’s figures/)).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(api.lastBody('/hosting-rules/run_now')).toEqual({ id: 1 }));
    const run = await findDialog('Running rule: Stop-loss US');
    await waitFor(() => expect(api.count('/tasks/get')).toBeGreaterThan(1));
    await user.click(run.getByRole('button', { name: 'History' }));
    await waitFor(() => expect(api.lastBody('/rule-history/firings')).toMatchObject({ rule_id: 1 }));
    expect(new URLSearchParams(router.state.location.search).get('view')).toBe('history');
  });

  it('starts a counted window at 7 days and sends its N', async () => {
    const { api, user } = setup('/operation/account?view=rules');
    await screen.findByText('Stop-loss US');
    await user.click(screen.getByRole('button', { name: /New rule/ }));
    await user.click(await screen.findByRole('menuitem', { name: /^Blank rule/ }));
    const editor = await findDialog('New rule');
    await user.type(editor.getByRole('textbox', { name: 'Rule name' }), 'Week spend');
    const cond = within(screen.getByTestId('condition-0-0'));
    await user.type(cond.getByRole('spinbutton', { name: 'Value' }), '100');
    await user.click(cond.getByRole('combobox', { name: 'Window' }));
    await user.click(await screen.findByTitle('Last N days'));
    expect((await cond.findByRole('spinbutton', { name: 'N' }) as HTMLInputElement).value).toBe('7');
    await user.click(editor.getByRole('button', { name: /Dry run/ }));
    await waitFor(() => expect(api.lastBody('/hosting-rules/dry_run')).toMatchObject({ rule: { conditions: { groups: [{ conditions: [{ metric: 'spend', value: 100, window: { type: 'last_days', n: 7 } }] }] } } }));
    expect(await screen.findByText('Nothing matches right now.')).toBeTruthy();
  });

  it('shows the history of firings with their figures, filters it and exports it', async () => {
    const { api, user } = setup('/operation/account?view=history', { firings: [firing(1, 'acted'), firing(2, 'failed')] });
    const row = await waitFor(() => rowOf('Ad loser 1'));
    expect(row.getByText('Acted')).toBeTruthy();
    expect(row.getByText(/Spend（today）42.5 ≥ 30/)).toBeTruthy();
    expect(row.getByText('ACTIVE → PAUSED')).toBeTruthy();
    expect(rowOf('Ad loser 2').getByText('Token expired')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Outcome' }));
    await user.click(await screen.findByTitle('Failed'));
    await waitFor(() => expect(api.lastBody('/rule-history/firings')).toMatchObject({ outcome: 'failed', page: 1 }));
    await waitFor(() => expect(screen.queryByText('Ad loser 1')).toBeNull());

    await user.click(screen.getByRole('button', { name: /Export/ }));
    await waitFor(() => expect(api.lastBody('/rule-history/export')).toMatchObject({ outcome: 'failed', columns: expect.arrayContaining(['values', 'before', 'after']) }));
    expect(api.lastBody('/rule-history/export')).not.toHaveProperty('page');
  });

  it('filters the history by a rule searched by name on the server, paged in as the list scrolls', async () => {
    const many = Array.from({ length: 45 }, (_, i) => buildRule(100 + i, { ...ruleTemplate('stop_loss', 'en'), name: `Bulk rule ${String(i).padStart(2, '0')}` }));
    const { api, user } = setup('/operation/account?view=history', { rules: [stopLoss, scale, ...many], firings: [firing(1, 'acted')] });
    await waitFor(() => rowOf('Ad loser 1'));
    const picker = screen.getByRole('combobox', { name: 'Rule' });
    expect(within(picker.closest('.ant-select')! as HTMLElement).getByText('All')).toBeTruthy();
    await user.click(picker);
    // A page of 20, not every rule.
    await waitFor(() => expect(api.lastBody('/hosting-rules/list')).toMatchObject({ page: 1, page_size: 20 }));
    const first = await screen.findByTitle('Bulk rule 00');
    // Scrolled to its end (jsdom lays nothing out, so every scroll is at the end), the list asks for the next page.
    fireEvent.scroll(first.closest('.ant-select-dropdown-list-holder')!);
    await waitFor(() => expect(api.lastBody('/hosting-rules/list')).toMatchObject({ page: 2, page_size: 20 }));
    await user.type(picker, 'Scale');
    await waitFor(() => expect(api.lastBody('/hosting-rules/list')).toMatchObject({ keyword: 'Scale', page: 1 }));
    await user.click(await screen.findByTitle('Scale JP'));
    await waitFor(() => expect(api.lastBody('/rule-history/firings')).toMatchObject({ rule_id: 2 }));
  });

  it('names a rule from a shared history link that the first page of rules does not hold', async () => {
    const many = Array.from({ length: 45 }, (_, i) => buildRule(100 + i, { ...ruleTemplate('stop_loss', 'en'), name: `Bulk rule ${String(i).padStart(2, '0')}` }));
    const { api } = setup('/operation/account?view=history&rule_id=100', { rules: [stopLoss, scale, ...many], firings: [firing(1, 'acted')] });
    await waitFor(() => expect(api.lastBody('/rule-history/firings')).toMatchObject({ rule_id: 100 }));
    await waitFor(() => expect(api.lastBody('/hosting-rules/get')).toMatchObject({ id: 100 }));
    expect(await screen.findByTitle('Bulk rule 00')).toBeTruthy();
  });

  it('opens a rule’s history from its row', async () => {
    const { api, user, router } = setup('/operation/account?view=rules', { firings: [firing(1, 'acted')] });
    await screen.findByText('Stop-loss US');
    await user.click(rowOf('Stop-loss US').getByRole('button', { name: 'History Stop-loss US' }));
    await waitFor(() => expect(api.lastBody('/rule-history/firings')).toMatchObject({ rule_id: 1 }));
    expect(new URLSearchParams(router.state.location.search).get('view')).toBe('history');
    expect(await screen.findByText('Ad loser 1')).toBeTruthy();
  });

  it('creates a channel, keeps its secret hidden on edit, and shows a test’s delivery result', async () => {
    const failing = buildChannel({ id: 3, name: 'Slack ops', type: 'slack', has_secret: false, webhook_url_masked: 'https://hooks.slack.com/services/T0…' });
    const { api, user } = setup('/operation/account?view=channels', {
      channels: [failing],
      testDelivery: (c) => ({ id: 9, channel: { id: c.id, name: c.name, type: c.type }, kind: 'test', title: 'Test', status: 'failed', attempts: 1, next_attempt_at: null, http_status: 404, error: 'no_service: the webhook is gone', response: 'no_service', rule_id: null, duplicates: 0, created_at: '2026-11-24T08:00:00.000Z', sent_at: null }),
    });
    await screen.findByText('Slack ops');
    await user.click(screen.getByRole('button', { name: /New channel/ }));
    const form = await findDialog('New channel');
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Ops Feishu');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await within(await screen.findByTestId('channel-issues')).findByText(/Enter the webhook URL/)).toBeTruthy();
    expect(api.count('/notification-channels/save')).toBe(0);
    await user.type(form.getByRole('textbox', { name: 'Webhook URL' }), 'https://open.feishu.cn/open-apis/bot/v2/hook/secret-key-123');
    await user.type(form.getByLabelText('Signing secret'), 's3cret');
    await user.click(form.getByRole('switch', { name: /Receive system alerts/ }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.lastBody('/notification-channels/save')).toEqual({ name: 'Ops Feishu', type: 'feishu', enabled: true, system_alerts: true, lang: 'en', rate_limit_per_minute: 20, webhook_url: 'https://open.feishu.cn/open-apis/bot/v2/hook/secret-key-123', secret: 's3cret' }),
    );
    expect(await screen.findByText('Channel saved')).toBeTruthy();

    // Edit: the secret is never shown; left empty it is not sent (kept).
    await user.click(await screen.findByRole('button', { name: 'Edit Ops Feishu' }));
    const edit = await findDialog('Edit channel');
    expect((edit.getByLabelText('Signing secret') as HTMLInputElement).value).toBe('');
    expect((edit.getByLabelText('Signing secret') as HTMLInputElement).placeholder).toBe('Set; leave empty to keep it');
    await user.click(edit.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.count('/notification-channels/save')).toBe(2));
    const body = api.lastBody('/notification-channels/save') as Record<string, unknown>;
    expect(body).not.toHaveProperty('secret');
    expect(body).not.toHaveProperty('webhook_url');

    await user.click(rowOf('Slack ops').getByRole('button', { name: /Send test Slack ops/ }));
    const result = await findDialog('Test result: Slack ops');
    expect(result.getByText('Not delivered')).toBeTruthy();
    expect(result.getByText('404')).toBeTruthy();
    expect(result.getByText('no_service: the webhook is gone')).toBeTruthy();
    await user.click(result.getByRole('button', { name: 'OK' }));
    expect(await within(screen.getByTestId('deliveries')).findByText('Failed')).toBeTruthy();
  });
});
