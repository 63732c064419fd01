import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { freshDatabase } from '../../test/build-test-app.ts';
import { createSite } from '../../test/factories.ts';
import { ingestEvents, readLanding, type IngestSite } from './ingest.ts';
import { parseOrderEvent } from './order-event.ts';

// Attribution (issue 9): a buyer belongs to the ad of the landing URL read with the site's link
// template (every template shape), else to the ids the site sent; later orders inherit it; no
// ad = organic. New vs returning payers per site, also when orders arrive out of order.

describe('landing URLs read with each link template shape', () => {
  const cases: { name: string; template: string; url: string; want: ReturnType<typeof readLanding> }[] = [
    {
      name: 'drama id in the path, the rest in the query (the demo shape), plus url_tags and fbclid',
      template: 'https://drama.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}',
      url: 'https://drama.example.com/play/D100?ep=3&c=120001&s=120002&a=120003&utm_source=fb&fbclid=IwAR1',
      want: { attribution: { campaign_platform_id: '120001', adset_platform_id: '120002', ad_platform_id: '120003', attribution_source: 'landing_url' }, drama_id: 'D100', episode: 3, product_id: null },
    },
    {
      name: 'everything in the path',
      template: 'https://m.drama.example.com/{campaign_id}/{adset_id}/{ad_id}/{drama_id}/{episode}',
      url: 'https://m.drama.example.com/9001/9002/9003/D7/12/',
      want: { attribution: { campaign_platform_id: '9001', adset_platform_id: '9002', ad_platform_id: '9003', attribution_source: 'landing_url' }, drama_id: 'D7', episode: 12, product_id: null },
    },
    {
      name: 'query keys of the site’s own naming, in any order',
      template: 'https://drama.example.com/watch?drama={drama_id}&cid={campaign_id}&gid={adset_id}&aid={ad_id}',
      url: 'https://drama.example.com/watch?aid=33&gid=22&cid=11&drama=X%201',
      want: { attribution: { campaign_platform_id: '11', adset_platform_id: '22', ad_platform_id: '33', attribution_source: 'landing_url' }, drama_id: 'X 1', episode: null, product_id: null },
    },
    {
      name: 'a shop product page',
      template: 'https://shop.example.com/p/{product_id}?c={campaign_id}&s={adset_id}&a={ad_id}',
      url: 'https://shop.example.com/p/SKU-9?c=5&s=6&a=7',
      want: { attribution: { campaign_platform_id: '5', adset_platform_id: '6', ad_platform_id: '7', attribution_source: 'landing_url' }, drama_id: null, episode: null, product_id: 'SKU-9' },
    },
    {
      name: 'only the campaign in the template',
      template: 'https://drama.example.com/{drama_id}?c={campaign_id}',
      url: 'https://drama.example.com/D1?c=77',
      want: { attribution: { campaign_platform_id: '77', adset_platform_id: null, ad_platform_id: null, attribution_source: 'landing_url' }, drama_id: 'D1', episode: null, product_id: null },
    },
    {
      name: 'macros the platform did not expand are no ids',
      template: 'https://drama.example.com/play/{drama_id}?c={campaign_id}&a={ad_id}',
      url: 'https://drama.example.com/play/D1?c={{campaign.id}}&a={{ad.id}}',
      want: { attribution: null, drama_id: 'D1', episode: null, product_id: null },
    },
    {
      name: 'the landing page without ids (organic)',
      template: 'https://drama.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}',
      url: 'https://drama.example.com/play/D100',
      want: { attribution: null, drama_id: 'D100', episode: null, product_id: null },
    },
    {
      name: 'another host, or no URL at all',
      template: 'https://drama.example.com/play/{drama_id}?c={campaign_id}',
      url: 'https://elsewhere.example.com/play/D1?c=5',
      want: { attribution: null, drama_id: null, episode: null, product_id: null },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(readLanding(c.template, c.url)).toEqual(c.want);
    });
  }
  it('reads nothing from a missing or broken URL', () => {
    expect(readLanding('https://drama.example.com/{drama_id}', null).attribution).toBeNull();
    expect(readLanding('https://drama.example.com/{drama_id}', 'not a url').attribution).toBeNull();
    // A broken %-escape where a placeholder sits: nothing is read, nothing throws.
    expect(readLanding('https://drama.example.com/play/{drama_id}?c={campaign_id}', 'https://drama.example.com/play/%E0%A4%A?c=5')).toEqual({ attribution: null, drama_id: null, episode: null, product_id: null });
  });
});

describe('buyers, inheritance and organic orders', () => {
  let database: Database;
  let site: IngestSite;
  beforeAll(async () => {
    database = await freshDatabase();
    const row = await createSite(database.db);
    site = { id: row.id, link_template: 'https://drama.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}' };
    await database.db.updateTable('sites').set({ link_template: site.link_template }).where('id', '=', site.id).execute();
  });
  afterAll(() => database.close());

  let n = 0;
  async function ingest(...events: Record<string, unknown>[]) {
    const items = events.map((raw, i) => {
      const full = { event: 'order.paid', order_no: `N-${++n}`, amount: '1.99', currency: 'USD', paid_at: '2026-11-01T10:00:00Z', ...raw };
      const r = parseOrderEvent(full, { lang: 'en' });
      if (!r.event) throw new Error(JSON.stringify(r.errors));
      return { event: r.event, raw: r.raw, field: `events.${i}` };
    });
    return database.db.transaction().execute((trx) => ingestEvents(trx, { site, reportTimezone: 'Asia/Shanghai', now: new Date('2026-11-02T00:00:00Z'), source: 'webhook', lang: 'en' }, items));
  }
  const ordersOf = (user: string) =>
    database.db
      .selectFrom('orders')
      .select(['order_no', 'is_new_payer', 'campaign_platform_id', 'adset_platform_id', 'ad_platform_id', 'attribution_source', 'paid_day'])
      .where('app_user_id', '=', user)
      .orderBy('paid_at')
      .execute();
  const buyer = (user: string) => database.db.selectFrom('order_buyers').selectAll().where('app_user_id', '=', user).executeTakeFirstOrThrow();
  const LANDING = 'https://drama.example.com/play/D1?ep=2&c=11&s=12&a=13';

  it('attributes a buyer by the landing URL; later orders without one inherit the ad; the acquisition day is in REPORT_TIMEZONE', async () => {
    await ingest({ app_user_id: 'ann', landing_url: LANDING, paid_at: '2026-11-01T17:30:00Z' });
    await ingest({ app_user_id: 'ann', paid_at: '2026-11-03T01:00:00Z' }, { app_user_id: 'ann', paid_at: '2026-11-09T01:00:00Z', ad_id: '999' });
    expect(await ordersOf('ann')).toEqual([
      { order_no: expect.any(String), is_new_payer: true, campaign_platform_id: '11', adset_platform_id: '12', ad_platform_id: '13', attribution_source: 'landing_url', paid_day: '2026-11-02' },
      { order_no: expect.any(String), is_new_payer: false, campaign_platform_id: '11', adset_platform_id: '12', ad_platform_id: '13', attribution_source: 'landing_url', paid_day: '2026-11-03' },
      { order_no: expect.any(String), is_new_payer: false, campaign_platform_id: '11', adset_platform_id: '12', ad_platform_id: '13', attribution_source: 'landing_url', paid_day: '2026-11-09' },
    ]);
    // 17:30 UTC is the next day in Shanghai: the cohort day of the buyer.
    expect(await buyer('ann')).toMatchObject({ acquisition_day: '2026-11-02', ad_platform_id: '13' });
  });

  it('falls back to the ids the site sent when the landing URL has none', async () => {
    await ingest({ app_user_id: 'ben', landing_url: 'https://drama.example.com/play/D1', campaign_id: '21', adset_id: '22', ad_id: '23' });
    expect((await ordersOf('ben'))[0]).toMatchObject({ campaign_platform_id: '21', ad_platform_id: '23', attribution_source: 'payload' });
  });

  it('keeps orders without any ad as organic, and the buyer new then returning', async () => {
    await ingest({ app_user_id: 'cat' }, { app_user_id: 'cat', paid_at: '2026-11-01T12:00:00Z' });
    const rows = await ordersOf('cat');
    expect(rows.map((r) => [r.is_new_payer, r.ad_platform_id, r.attribution_source])).toEqual([
      [true, null, null],
      [false, null, null],
    ]);
    expect((await buyer('cat')).attribution_source).toBeNull();
  });

  it('moves the first order and the attribution when an earlier order arrives late', async () => {
    await ingest({ app_user_id: 'dan', paid_at: '2026-11-05T10:00:00Z' });
    expect(await buyer('dan')).toMatchObject({ acquisition_day: '2026-11-05', ad_platform_id: null });
    // The order that brought Dan, through an ad, is delivered later than his recharge.
    await ingest({ app_user_id: 'dan', paid_at: '2026-11-01T10:00:00Z', landing_url: LANDING });
    const rows = await ordersOf('dan');
    expect(rows.map((r) => [r.paid_day, r.is_new_payer, r.ad_platform_id])).toEqual([
      ['2026-11-01', true, '13'],
      ['2026-11-05', false, '13'],
    ]);
    expect(await buyer('dan')).toMatchObject({ acquisition_day: '2026-11-01', ad_platform_id: '13', attribution_source: 'landing_url' });
  });

  it('counts one new payer per buyer and site', async () => {
    const other = await createSite(database.db);
    const otherSite = { id: other.id, link_template: site.link_template };
    const items = [parseOrderEvent({ event: 'order.paid', order_no: 'X-1', amount: '1.00', currency: 'USD', paid_at: '2026-11-01T10:00:00Z', app_user_id: 'ann' }, { lang: 'en' })];
    await database.db.transaction().execute((trx) =>
      ingestEvents(trx, { site: otherSite, reportTimezone: 'Asia/Shanghai', now: new Date(), source: 'webhook', lang: 'en' }, items.map((r) => ({ event: r.event!, raw: r.raw, field: 'body' }))),
    );
    const newPayers = await database.db.selectFrom('orders').select(['site_id']).where('app_user_id', '=', 'ann').where('is_new_payer', '=', true).orderBy('site_id').execute();
    expect(newPayers.map((r) => r.site_id)).toEqual([site.id, other.id]);
  });
});
