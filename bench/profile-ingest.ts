// Where a webhook batch's time goes (bench/README.md "Orders"): signed batches of 100 new orders
// sent one after the other through the order service (no HTTP) on a database of the orders
// section, each statement's time summed by its text. Not part of `npm run bench`:
//   BENCH_PROFILE_DB=ads_bench_… [BENCH_PROFILE_BATCHES=30] npx tsx bench/profile-ingest.ts
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Db } from '../apps/server/src/db/database.ts';
import type { DB } from '../apps/server/src/db/schema.ts';
import { createOrderService } from '../apps/server/src/features/orders/orders.service.ts';
import { signatureHeader } from '../apps/server/src/features/orders/signature.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { secretBoxFor } from '../apps/server/src/lib/crypto.ts';
import { sitesOf } from './orders-data.ts';
import { existingBenchDatabase } from './postgres.ts';

const name = process.env.BENCH_PROFILE_DB;
if (!name) throw new Error('BENCH_PROFILE_DB must name a kept ads_bench_… database (BENCH_KEEP_DB=1 npm run bench -- orders)');
const batches = Number(process.env.BENCH_PROFILE_BATCHES ?? 30);
if (!Number.isInteger(batches) || batches < 4 || batches > 1000) throw new Error('BENCH_PROFILE_BATCHES must be an integer from 4 to 1000');
/** The first batches warm the caches and are not counted. */
const WARM = 3;

const stats = new Map<string, { n: number; ms: number }>();
let counting = false;
const pool = new pg.Pool({ connectionString: existingBenchDatabase(name).url, max: 2, options: '-c jit=off' });
const db = new Kysely<DB>({
  dialect: new PostgresDialect({ pool }),
  log(e) {
    if (e.level !== 'query' || !counting) return;
    // The stripe locks' statement text carries its stripes: one key for all of them.
    const k = e.query.sql.replace(/\s+/g, ' ').replace(/array\[[\d, -]+\]/, 'array[…]').slice(0, 80);
    const s = stats.get(k) ?? { n: 0, ms: 0 };
    s.n += 1;
    s.ms += e.queryDurationMillis;
    stats.set(k, s);
  },
}) as unknown as Db;

const site = (await sitesOf(db))[0]!;
const orders = createOrderService({ db, clock: systemClock, secrets: secretBoxFor(db, undefined), reportTimezone: process.env.REPORT_TIMEZONE ?? 'Asia/Shanghai', cohortDrainDelayMs: 0 });
const run = Math.random().toString(36).slice(2, 8);
let wall = 0;
for (let b = 0; b < batches; b++) {
  const now = new Date().toISOString();
  const events = Array.from({ length: 100 }, (_, i) => ({
    event: 'order.paid',
    order_no: `P${run}-${b}-${i}`,
    amount: '4.99',
    currency: 'USD',
    paid_at: now,
    app_user_id: `p${run}-${b}-${i}`,
    country: 'US',
    landing_url: site.linkTemplate
      .replace('{drama_id}', 'D1')
      .replace('{episode}', '1')
      .replace('{product_id}', 'P1')
      .replace('{campaign_id}', '120200000000001')
      .replace('{adset_id}', '120210000000001')
      .replace('{ad_id}', String(120220000000001 + ((i * 7) % 5000))),
  }));
  const raw = Buffer.from(JSON.stringify({ events }));
  counting = b >= WARM;
  const started = performance.now();
  const a = await orders.receive(String(site.id), raw, signatureHeader(site.secret, Math.floor(Date.now() / 1000), raw), 'en');
  if (counting) wall += performance.now() - started;
  if (a.status !== 200) throw new Error(`batch ${b}: ${a.status} ${a.body.message}`);
}
await orders.close();
const counted = batches - WARM;
let sqlMs = 0;
for (const [k, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms)) {
  sqlMs += s.ms;
  console.log(`${(s.ms / counted).toFixed(2).padStart(8)} ms/batch  ${(s.n / counted).toFixed(1).padStart(5)}×  ${k}`);
}
console.log(`${counted} batches of 100: ${(wall / counted).toFixed(1)} ms each, ${(sqlMs / counted).toFixed(1)} ms of it in statements (the rest: the server's own work and waiting)`);
await db.destroy();
