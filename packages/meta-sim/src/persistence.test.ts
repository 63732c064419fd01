import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from './simulator.ts';
import { START } from './testing/harness.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function json(res: Response) {
  return (await res.json()) as any;
}

describe('persistence', () => {
  it('keeps state, ids and the clock across a restart on the same data dir', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meta-sim-'));
    dirs.push(dir);
    const first = await startSimulator({ port: 0, dataDir: dir, startTime: START, speed: 0 });
    const user = await json(await fetch(`${first.url}/__sim/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ad_accounts: 1 }) }));
    const account = user.ad_accounts[0].id;
    const body = new URLSearchParams({ access_token: user.access_token, name: 'Persisted', objective: 'OUTCOME_SALES', special_ad_categories: '[]', is_adset_budget_sharing_enabled: 'false' });
    const created = await json(await fetch(`${first.url}/v25.0/${account}/campaigns`, { method: 'POST', body }));
    await fetch(`${first.url}/__sim/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '2h' }) });
    // A second simulator may not share the directory.
    await expect(startSimulator({ port: 0, dataDir: dir })).rejects.toThrow(/in use/);
    await first.close();
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')).format).toBe('meta-sim/1');

    const second = await startSimulator({ port: 0, dataDir: dir });
    const read = await json(await fetch(`${second.url}/v25.0/${created.id}?fields=name&access_token=${user.access_token}`));
    expect(read).toEqual({ name: 'Persisted', id: created.id });
    expect(second.now()).toBe(Date.parse(START) + 2 * 3_600_000);
    const next = await json(
      await fetch(`${second.url}/v25.0/${account}/campaigns`, {
        method: 'POST',
        body: new URLSearchParams({ access_token: user.access_token, name: 'After restart', objective: 'OUTCOME_SALES', special_ad_categories: '[]', is_adset_budget_sharing_enabled: 'false' }),
      }),
    );
    expect(Number(next.id)).toBeGreaterThan(Number(created.id));
    await second.close();
  });
});

describe('sites across a restart', () => {
  it('keeps a site with its settings, catalog, cursor and stats', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meta-sim-'));
    dirs.push(dir);
    const first = await startSimulator({ port: 0, dataDir: dir, startTime: START, speed: 0, orderIntervalMs: 0 });
    const body = { webhook_url: 'http://127.0.0.1:9/orders', secret: 'persist-secret', kind: 'shop', currency: 'JPY', timezone: 'Asia/Tokyo', products: [{ external_id: 'P1', price: '1500' }] };
    const put = await json(await fetch(`${first.url}/__sim/sites/s1`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    await first.close();
    const second = await startSimulator({ port: 0, dataDir: dir, orderIntervalMs: 0 });
    const got = await json(await fetch(`${second.url}/__sim/sites/s1`));
    expect(got).toEqual(put);
    expect(got).toMatchObject({ kind: 'shop', currency: 'JPY', products: [{ external_id: 'P1', price: '1500' }], dispatched_until: Date.parse(START) });
    await second.close();
  });
});
