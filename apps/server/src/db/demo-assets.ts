import { REQUIRED_SCOPES, type DramaTestStatus } from '@ads/contracts';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { createCatalogService } from '../features/sites/catalog.service.ts';
import { createSiteService } from '../features/sites/sites.service.ts';
import { createAssetSync } from '../features/personal-accounts/asset-sync.service.ts';
import { createPersonalAccountService } from '../features/personal-accounts/personal-accounts.service.ts';
import type { Jobs } from '../jobs/types.ts';
import type { Actor, RequestContext } from '../lib/actor.ts';
import type { Clock } from '../lib/clock.ts';
import { secretBoxFor } from '../lib/crypto.ts';
import { editLinks } from '../lib/links.ts';
import type { AdPlatformClient } from '../platform/types.ts';
import type { Db } from './database.ts';
import { demoCoverUrl } from './demo-covers.ts';

/**
 * DEMO=1, after the demo company (demo.ts): a simulated personal account reaching 36 ad accounts
 * (USD, EUR, JPY in four time zones), 8 pages and 4 pixels, connected and synced through the
 * same services as the screens, its ad accounts split among the demo optimizers with platforms
 * set, and two sites with catalogs. Once per database: an app_settings row records it.
 */

const DONE_KEY = 'demo.assets';

export interface DemoAssetsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: Jobs;
  platform: AdPlatformClient;
  /** Base URL of a simulator whose control API (/__sim/) creates the test user. */
  simulatorUrl: string;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

const TIME_ZONES = ['America/Los_Angeles', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo'];
const CURRENCIES = ['USD', 'USD', 'EUR', 'JPY'];

/** Ad accounts per optimizer (demo.ts accounts), in the order they are handed out, and their platform. */
const SHARES: [string, number, 'dj' | 'ec'][] = [
  ['zhangwei', 6, 'dj'],
  ['lina', 6, 'dj'],
  ['wangfang', 6, 'dj'],
  ['liuyang', 5, 'dj'],
  ['chenjing', 5, 'dj'],
  ['zhaolei', 4, 'ec'],
  ['sunli', 4, 'ec'],
];

/** The demo dramas (their covers are drawn by demo-covers.ts). */
export const DRAMAS: [string, string, string, number, DramaTestStatus, string[]][] = [
  ['D1001', '总裁的替身新娘', 'zh', 80, 'passed', ['霸总', '甜宠']],
  ['D1002', '重生之医妃归来', 'zh', 96, 'passed', ['古装', '重生']],
  ['D1003', '闪婚后大佬每天都在宠我', 'zh', 72, 'testing', ['都市', '甜宠']],
  ['D1004', '战神归来', 'zh', 100, 'failed', ['逆袭', '战神']],
  ['D1005', '龙王的赘婿', 'zh', 90, 'untested', ['逆袭']],
  ['E2001', 'The Billionaire’s Secret Heir', 'en', 70, 'passed', ['billionaire', 'romance']],
  ['E2002', 'Fated to the Alpha King', 'en', 85, 'testing', ['werewolf', 'romance']],
  ['E2003', 'Revenge of the Divorced Wife', 'en', 60, 'testing', ['revenge']],
  ['E2004', 'My Contract Husband', 'en', 66, 'untested', ['contract marriage']],
  ['J3001', '社長の秘密の花嫁', 'ja', 75, 'passed', ['ロマンス']],
  ['J3002', '転生したら最強の令嬢だった', 'ja', 88, 'testing', ['転生', 'ファンタジー']],
  ['J3003', '復讐の花嫁', 'ja', 64, 'untested', ['復讐']],
];

const PRODUCTS: [string, string, number, string, string[]][] = [
  ['SKU-101', 'Silk Sleep Mask', 19.99, 'USD', ['beauty', 'sleep']],
  ['SKU-102', 'Portable Blender Pro', 39.9, 'USD', ['kitchen']],
  ['SKU-103', 'Magnetic Phone Holder', 15.5, 'USD', ['car', 'gadget']],
  ['SKU-104', 'LED Sunset Lamp', 24.99, 'USD', ['home', 'decor']],
  ['SKU-105', 'Posture Corrector', 29.0, 'USD', ['health']],
  ['SKU-106', 'Pet Hair Remover Roller', 12.99, 'USD', ['pets', 'cleaning']],
  ['SKU-107', 'Waterproof Hiking Backpack', 49.0, 'EUR', ['outdoor']],
  ['SKU-108', 'Mini Projector 1080p', 8900, 'JPY', ['gadget', 'home']],
];

async function simControl(url: string, pathname: string, body: unknown) {
  const res = await fetch(`${url}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`simulator ${pathname}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Runs once per database; answers a one-line description of what it added, or null. */
export async function seedDemoAssets(deps: DemoAssetsDeps): Promise<string | null> {
  const { db, clock, config, jobs, platform, simulatorUrl, log } = deps;
  // Claimed first, so a second process starting together does not seed twice; released on failure.
  const claimed = await db.insertInto('app_settings').values({ key: DONE_KEY, value: 'running' }).onConflict((oc) => oc.column('key').doNothing()).returning('key').executeTakeFirst();
  if (!claimed) return null;
  try {
    const people = await db.selectFrom('users').select(['id', 'account', 'name', 'is_admin', 'is_leader', 'department_id']).where('deleted_at', 'is', null).execute();
    const byAccount = new Map(people.map((p) => [p.account, p]));
    const owner = byAccount.get('zhangwei');
    const manager = people.find((p) => p.account === 'manager') ?? people.find((p) => p.is_admin === 1);
    if (!owner || !manager) {
      log.warn({}, 'DEMO=1: the demo staff are missing (the database had departments before), so no demo assets were added');
      await db.updateTable('app_settings').set({ value: 'skipped' }).where('key', '=', DONE_KEY).execute();
      return null;
    }
    const ctxOf = (u: typeof owner): RequestContext => {
      const actor: Actor = { ...u, asset_scope: 'own', sessionId: 0, paths: [], pathSet: new Set() };
      return { actor, ip: '127.0.0.1', requestId: 'demo-seed', lang: 'zh' };
    };
    const secrets = secretBoxFor(db, config.tokenEncryptionKey);

    const specs = Array.from({ length: 36 }, (_, i) => ({
      name: `${i < 28 ? '短剧' : '电商'}投放-${String(i + 1).padStart(2, '0')}`,
      currency: CURRENCIES[i % CURRENCIES.length],
      timezone_name: TIME_ZONES[i % TIME_ZONES.length],
      relation: i % 9 === 8 ? 'client' : 'owned',
    }));
    const simUser = await simControl(simulatorUrl, '/__sim/users', {
      name: 'Demo Media Buyer',
      business_name: '星河互娱 Business',
      scopes: [...REQUIRED_SCOPES, 'pages_manage_posts', 'read_insights'],
      ad_accounts: specs,
      pages: ['星河短剧', 'Starlight Drama', 'ドラマ星河', '霸总甜宠剧场', 'Romance Shorts', '古装剧场', '好物商城', 'Daily Deals Shop'].map((name) => ({ name })),
      pixels: 4,
    });

    const accounts = createPersonalAccountService({ db, clock, secrets, jobs, platform, publicUrl: config.publicUrl, log });
    const connected = await accounts.connectToken(ctxOf(owner), { access_token: String(simUser.access_token), owner_user_id: owner.id });
    const summary = await createAssetSync({ db, platform, clock, secrets }).syncPersonalAccount(connected.id);

    // Split the accounts (in the order the simulator created them) among the optimizers.
    const adAccounts = await db
      .selectFrom('ad_accounts as a')
      .innerJoin('personal_account_ad_accounts as l', 'l.ad_account_id', 'a.id')
      .select(['a.id'])
      .where('l.personal_account_id', '=', connected.id)
      .orderBy(sql`length(a.account_id)`)
      .orderBy('a.account_id')
      .execute();
    const pages = await db
      .selectFrom('pages as p')
      .innerJoin('personal_account_pages as l', 'l.page_id', 'p.id')
      .select(['p.id', 'p.name'])
      .where('l.personal_account_id', '=', connected.id)
      // Simulator ids grow in creation order (the order of the names above).
      .orderBy(sql`length(p.platform_id)`)
      .orderBy('p.platform_id')
      .execute();
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      let next = 0;
      for (const [account, count, platformCode] of SHARES) {
        const user = byAccount.get(account);
        const mine = adAccounts.slice(next, next + count).map((a) => a.id);
        next += count;
        if (!user || !mine.length) continue;
        await trx.insertInto('user_ad_accounts').values(mine.map((ad_account_id) => ({ user_id: user.id, ad_account_id, created_at: now }))).onConflict((oc) => oc.doNothing()).execute();
        await trx.updateTable('ad_accounts').set({ platform: platformCode, updated_at: now }).where('id', 'in', mine).execute();
        // Drama pages for drama optimizers, shop pages for e-commerce ones; each may use them on their accounts.
        const theirPages = pages.filter((_, i) => (platformCode === 'ec' ? i >= 6 : i < 6)).map((p) => p.id);
        for (const pageId of theirPages) {
          await editLinks(trx, { table: 'page_users', owner: { column: 'page_id', id: pageId }, target: 'user_id', ids: [user.id], mode: 'add', reach: null, now });
          await editLinks(trx, { table: 'page_ad_accounts', owner: { column: 'page_id', id: pageId }, target: 'ad_account_id', ids: mine, mode: 'add', reach: null, now });
        }
      }
      await trx.insertInto('audit_logs').values({ action: 'system.demo_assets', entity_type: 'personal_account', entity_id: String(connected.id), after: JSON.stringify(summary) }).execute();
    });

    const managerCtx = ctxOf(manager);
    const pixels = await db.selectFrom('pixels').select('id').orderBy('id').limit(2).execute();
    const sites = createSiteService({ db, clock, secrets, publicUrl: config.publicUrl });
    const catalog = createCatalogService({ db, clock });
    const dramaSite = await sites.create(managerCtx, {
      name: '星河短剧站',
      domain: 'drama.example.com',
      platform: 'dj',
      link_template: 'https://drama.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}',
      pixel_id: pixels[0]?.id ?? null,
      remark: '演示站点',
    });
    for (const [external_id, name, language, episode_count, test_status, tags] of DRAMAS) {
      await catalog.createDrama(managerCtx, { site_id: dramaSite.id, external_id, name, language, episode_count, test_status, tags, cover_url: demoCoverUrl(config.publicUrl, external_id) });
    }
    const shopSite = await sites.create(managerCtx, {
      name: '好物商城',
      domain: 'shop.example.com',
      platform: 'ec',
      link_template: 'https://shop.example.com/p/{product_id}?c={campaign_id}&s={adset_id}&a={ad_id}',
      pixel_id: pixels[1]?.id ?? pixels[0]?.id ?? null,
      remark: '演示站点',
    });
    for (const [external_id, name, price, currency, tags] of PRODUCTS) {
      await catalog.createProduct(managerCtx, { site_id: shopSite.id, external_id, name, url: `https://shop.example.com/p/${external_id}`, price, currency, tags });
    }

    await db.updateTable('app_settings').set({ value: 'done', updated_at: clock.now() }).where('key', '=', DONE_KEY).execute();
    return `personal account "${connected.name}" with ${summary.ad_accounts} ad accounts, ${summary.pages} pages, ${summary.pixels} pixels; sites with ${DRAMAS.length} dramas and ${PRODUCTS.length} products`;
  } catch (err) {
    await db.deleteFrom('app_settings').where('key', '=', DONE_KEY).execute();
    throw err;
  }
}

/**
 * Points the demo dramas' covers at this server: databases seeded before covers were served
 * locally kept an address that does not resolve, and a changed PUBLIC_URL or port moves them.
 * Answers how many were changed.
 */
export async function refreshDemoCovers(db: Db, publicUrl: string): Promise<number> {
  let changed = 0;
  for (const [id] of DRAMAS) {
    const url = demoCoverUrl(publicUrl, id);
    const res = await db
      .updateTable('dramas')
      .set({ cover_url: url })
      .where('external_id', '=', id)
      .where((eb) => eb.or([eb('cover_url', '=', `https://drama.example.com/covers/${id}.jpg`), eb.and([eb('cover_url', 'like', '%/demo/covers/%'), eb('cover_url', '!=', url)])]))
      .executeTakeFirst();
    changed += Number(res.numUpdatedRows);
  }
  return changed;
}
