import { PREFERENCE_MAX_KEYS, preferenceSchema } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '@ads/contracts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';

let t: TestApp;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await buildTestApp();
  const a = await createUser(t.db, { account: 'alice' });
  const b = await createUser(t.db, { account: 'bob' });
  alice = await t.login(a.account, a.password);
  bob = await t.login(b.account, b.password);
});
afterAll(() => t.close());

const answer = envelope(preferenceSchema);
const get = (token: string, key: string) => t.call(`/api/user-preferences?key=${encodeURIComponent(key)}`, undefined, { method: 'GET', token });
async function put(token: string, body: unknown) {
  const res = await t.app.inject({ method: 'PUT', url: '/api/user-preferences', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { ...res.json(), status: res.statusCode } as { code: number; message: string; data: any; status: number };
}

describe('user preferences', () => {
  it('answers null for a key never written, then what was stored, to its owner only', async () => {
    const empty = await get(alice, 'columns:/auth/account');
    expect(answer.parse(empty)).toMatchObject({ code: 0, data: { key: 'columns:/auth/account', value: null, updated_at: null } });

    const value = { hidden: ['balance'], sets: [{ name: 'Money', columns: ['name', 'balance', 'amount_spent'] }] };
    const saved = await put(alice, { key: 'columns:/auth/account', value });
    expect(saved.code).toBe(0);
    expect(answer.parse(saved).data).toEqual({ key: 'columns:/auth/account', value, updated_at: '2026-11-01T08:00:00.000Z' });
    expect((await get(alice, 'columns:/auth/account')).data.value).toEqual(value);
    // Bob has his own, empty.
    expect((await get(bob, 'columns:/auth/account')).data.value).toBeNull();

    // A second write replaces the first.
    await put(alice, { key: 'columns:/auth/account', value: { hidden: [] } });
    expect((await get(alice, 'columns:/auth/account')).data.value).toEqual({ hidden: [], sets: [] });
  });

  it('refuses unknown keys, malformed values and oversized ones', async () => {
    const badKey = await put(alice, { key: 'theme:dark', value: { hidden: [] } });
    expect(badKey.code).toBe(-2);
    expect(badKey.data.errors.map((e: { field: string }) => e.field)).toContain('key');
    expect((await get(alice, '../etc')).code).toBe(-2);
    const badValue = await put(alice, { key: 'columns:/x', value: { hidden: 'balance' } });
    expect(badValue.code).toBe(-2);
    expect(badValue.data.errors.map((e: { field: string }) => e.field)).toContain('value.hidden');
    const extra = await put(alice, { key: 'columns:/x', value: { hidden: [], theme: 'dark' } });
    expect(extra.code).toBe(-2);
    const tooMany = await put(alice, { key: 'columns:/x', value: { hidden: Array.from({ length: 201 }, (_, i) => `c${i}`) } });
    expect(tooMany.code).toBe(-2);
    const sets = Array.from({ length: 21 }, (_, i) => ({ name: `Set ${i}`, columns: ['name'] }));
    expect((await put(alice, { key: 'columns:/x', value: { hidden: [], sets } })).code).toBe(-2);
    expect((await get(alice, 'columns:/x')).data.value).toBeNull();
  });

  it('needs a session', async () => {
    expect((await t.call('/api/user-preferences?key=columns:/x', undefined, { method: 'GET' })).code).toBe(401);
    const res = await t.app.inject({ method: 'PUT', url: '/api/user-preferences', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ key: 'columns:/x', value: { hidden: [] } }) });
    expect(res.json().code).toBe(401);
  });

  it('caps how many keys one user holds', async () => {
    const u = await createUser(t.db, { account: 'carol' });
    const token = await t.login(u.account, u.password);
    await t.db
      .insertInto('user_preferences')
      .values(Array.from({ length: PREFERENCE_MAX_KEYS }, (_, i) => ({ user_id: u.id, key: `columns:/t${i}`, value: '{"hidden":[],"sets":[]}', updated_at: new Date() })))
      .execute();
    const refused = await put(token, { key: 'columns:/one-more', value: { hidden: [] } });
    expect(refused).toMatchObject({ code: -2, message: expect.stringContaining(String(PREFERENCE_MAX_KEYS)) });
    // An existing key can still be rewritten.
    expect((await put(token, { key: 'columns:/t0', value: { hidden: ['name'] } })).code).toBe(0);
  });
});
