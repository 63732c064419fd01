import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from './testing/harness.ts';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim({ appId: '111', appSecret: 'shh' });
});
afterAll(() => t.close());

describe('OAuth and tokens', () => {
  it('lists the businesses and their ad accounts', async () => {
    const businesses = await t.graph('GET', '/me/businesses', { fields: 'id,name,verification_status' });
    expect(businesses.body.data).toEqual([{ id: t.user.business.id, name: t.user.business.name, verification_status: 'verified' }]);
    const owned = await t.graph('GET', `/${t.user.business.id}/owned_ad_accounts`, { fields: 'account_id,currency' });
    expect(owned.body.data).toHaveLength(2);
    const pixels = await t.graph('GET', `/${t.user.ad_accounts[0].id}/adspixels`, { fields: 'name,owner_business' });
    expect(pixels.body.data[0].owner_business.id).toBe(t.user.business.id);
  });
  it('renders the dialog, redirects with code and state, exchanges the code and then for a long-lived token', async () => {
    const redirect = 'http://127.0.0.1:9/callback?x=1';
    const dialog = await fetch(`${t.url}/v25.0/dialog/oauth?client_id=111&redirect_uri=${encodeURIComponent(redirect)}&state=csrf1&scope=ads_management,business_management`);
    expect(dialog.status).toBe(200);
    const html = await dialog.text();
    expect(html).toContain('Continue');
    expect(html).toContain(t.user.user.id);

    const submit = await fetch(`${t.url}/v25.0/dialog/oauth`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ client_id: '111', redirect_uri: redirect, state: 'csrf1', scope: 'ads_management,business_management', user_id: t.user.user.id, action: 'continue' }),
    });
    expect(submit.status).toBe(302);
    const location = new URL(submit.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('csrf1');
    expect(location.searchParams.get('x')).toBe('1');
    const code = location.searchParams.get('code')!;

    const q = (p: Record<string, string>) => new URLSearchParams(p).toString();
    const short = (await (await fetch(`${t.url}/v25.0/oauth/access_token?${q({ client_id: '111', client_secret: 'shh', redirect_uri: redirect, code })}`)).json()) as any;
    expect(short).toMatchObject({ access_token: expect.stringMatching(/^EAA/), token_type: 'bearer', expires_in: 7200 });
    const reused = (await (await fetch(`${t.url}/v25.0/oauth/access_token?${q({ client_id: '111', client_secret: 'shh', redirect_uri: redirect, code })}`)).json()) as any;
    expect(reused.error.code).toBe(100);

    const long = (await (
      await fetch(`${t.url}/v25.0/oauth/access_token?${q({ grant_type: 'fb_exchange_token', client_id: '111', client_secret: 'shh', fb_exchange_token: short.access_token })}`)
    ).json()) as any;
    expect(long.expires_in).toBe(60 * 86_400);
    const me = await t.graph('GET', '/me/permissions', { access_token: long.access_token });
    expect(me.body.data).toEqual([
      { permission: 'ads_management', status: 'granted' },
      { permission: 'business_management', status: 'granted' },
    ]);

    const debug = (await (await fetch(`${t.url}/v25.0/debug_token?${q({ input_token: long.access_token, access_token: '111|shh' })}`)).json()) as any;
    expect(debug.data).toMatchObject({ app_id: '111', type: 'USER', is_valid: true, user_id: t.user.user.id, scopes: ['ads_management', 'business_management'] });
    expect(debug.data.expires_at).toBe(Math.floor(t.sim.now() / 1000) + 60 * 86_400);

    await t.advance('61d');
    const expired = (await (await fetch(`${t.url}/v25.0/debug_token?${q({ input_token: long.access_token, access_token: '111|shh' })}`)).json()) as any;
    expect(expired.data).toMatchObject({ is_valid: false, error: { code: 190, subcode: 463 } });
  });

  it('cancel redirects with access_denied; a wrong secret is refused', async () => {
    const submit = await fetch(`${t.url}/v25.0/dialog/oauth`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ client_id: '111', redirect_uri: 'http://127.0.0.1:9/cb', state: 's', action: 'cancel' }),
    });
    expect(new URL(submit.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    const bad = (await (await fetch(`${t.url}/v25.0/oauth/access_token?client_id=111&client_secret=nope&code=x`)).json()) as any;
    expect(bad.error.code).toBe(1);
  });

});
