import { sql, type Kysely } from 'kysely';

/**
 * Campaign rollups over aligned blocks of days (issue 7 benchmark, bench/README.md "Reports"):
 * the optimizer, account and campaign views summed 30 campaign-days per campaign and side for
 * "the last 30 days", and those sums were most of the database's work under 20 users. Each block
 * table holds the same facts as its daily table summed over the dyadic blocks of 2, 4, … 128 days
 * (block b of level L covers days [b·2^L, (b+1)·2^L) counted from 1970-01-01), so a range reads
 * about two blocks per level it spans plus a few single days (day-blocks.ts): ~6–9 rows per
 * campaign and side for 30 days instead of 30.
 *
 * Kept by statement triggers on the daily tables, in the same transaction as every write of them
 * (the sync's refresh, the rollup refresher, a changed exchange rate, tests), by adding each
 * statement's differences (new rows minus old rows) into the blocks: additions commute, so writers
 * of the same campaign never overwrite each other's sums, and a block row whose daily rows are all
 * gone (n = 0) is removed, so a block has a row exactly when its days have rows.
 *
 * A block row carries the day rows' scope and filter columns; days of one campaign that differ in
 * them (an owner changed between two refreshes) stay apart, as they are in the daily table. `day`
 * is the block's last day: a report's range and cohort "matured by" cutoffs compare it as they
 * compare a daily row's day, and blocks are only read when wholly inside the range and on one
 * side of every cutoff.
 */

/** Insights facts of campaign_stats_daily summed into campaign_stats_blocks (contracts FACT_COLUMNS). */
const STATS_FACTS = ['spend_usd_cents', 'impressions', 'clicks', 'link_clicks', 'landing_page_views', 'purchases', 'purchase_value_usd_cents', 'add_to_cart', 'initiate_checkout', 'video_plays', 'video_p25', 'video_p50', 'video_p75', 'video_p95', 'video_p100', 'thruplays', 'video_watch_ms'];
/** Order facts of campaign_order_daily summed into campaign_order_blocks. */
const ORDER_FACTS = ['revenue_usd_cents', 'payers', 'new_payers', 'cohort_d0_usd_cents', 'cohort_d1_usd_cents', 'cohort_d3_usd_cents', 'cohort_d7_usd_cents', 'cohort_d14_usd_cents', 'cohort_d30_usd_cents'];
const KEY = ['campaign_id', 'ad_account_id', 'owner_user_id', 'platform', 'drama_id', 'product_id'];
/** Levels 1..7: blocks of 2 to 128 days. */
const TOP_LEVEL = 7;
/** block = level × 1,000,000 + the block's index at that level. */
const LEVEL_STRIDE = 1_000_000;

/**
 * The order in which block rows are written: a report reads a few blocks of an account or of
 * everyone, so new rows of one block and account go side by side (a table written in campaign order
 * had one row a page: 16,499 pages read for 30,000 rows); every writer takes its row locks in this
 * one order.
 */
const ORDER = 'block, ad_account_id, campaign_id, owner_user_id, platform, drama_id, product_id';

const list = (cols: string[], prefix = '') => cols.map((c) => `${prefix}${c}`).join(', ');

/** Rows of days `rows` (alias r, a day column and the key and facts) as block rows, summed per block and key. */
function blockRowsSql(rows: string, facts: string[]): string {
  const idx = `(r.day - date '1970-01-01')`;
  return `
    select l * ${LEVEL_STRIDE} + (${idx} >> l) as block, date '1970-01-01' + (((${idx} >> l) + 1) << l) - 1 as day,
           ${list(KEY, 'r.')}, sum(r.n)::int as n, ${facts.map((f) => `sum(r.${f})::bigint as ${f}`).join(', ')}
    from (${rows}) r cross join generate_series(1, ${TOP_LEVEL}) l
    group by 1, 2, ${list(KEY, 'r.')}`;
}

function tableAndTriggers(daily: string, blocks: string, facts: string[]): string {
  const factCols = facts.map((f) => `${f} bigint not null default 0`).join(',\n      ');
  const signed = (table: string, sign: '' | '-') => `select day, ${KEY.join(', ')}, ${sign}1 as n, ${facts.map((f) => `${sign}${f}::bigint as ${f}`).join(', ')} from ${table}`;
  const apply = (rows: string) => `
        insert into ${blocks} as w (block, day, ${KEY.join(', ')}, n, ${facts.join(', ')})
        select * from (${blockRowsSql(rows, facts)}) x order by ${ORDER}
        on conflict (campaign_id, block, ad_account_id, owner_user_id, platform, drama_id, product_id)
        do update set n = w.n + excluded.n, ${facts.map((f) => `${f} = w.${f} + excluded.${f}`).join(', ')};`;
  const prune = `
        delete from ${blocks} w where w.n = 0 and w.campaign_id in (select distinct campaign_id from old_rows);`;
  return `
    create table ${blocks} (
      block integer not null,
      day date not null,
      campaign_id integer not null,
      ad_account_id integer not null,
      owner_user_id integer,
      platform text,
      drama_id integer,
      product_id integer,
      n integer not null,
      ${factCols}
    ) with (fillfactor = 80);
    create unique index ${blocks}_key_idx on ${blocks} (campaign_id, block, ad_account_id, owner_user_id, platform, drama_id, product_id) nulls not distinct;
    -- As the daily tables: ranges read without scope (managers), and scope led by the account or the person.
    create index ${blocks}_block_account_idx on ${blocks} (block, ad_account_id);
    create index ${blocks}_account_block_idx on ${blocks} (ad_account_id, block);
    create index ${blocks}_owner_block_idx on ${blocks} (owner_user_id, block);

    create function ${blocks}_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then${apply(signed('new_rows', ''))}
      elsif tg_op = 'DELETE' then${apply(signed('old_rows', '-'))}${prune}
      else${apply(`${signed('new_rows', '')} union all ${signed('old_rows', '-')}`)}${prune}
      end if;
      return null;
    end $$;
    create trigger ${blocks}_ins after insert on ${daily} referencing new table as new_rows for each statement execute function ${blocks}_apply();
    create trigger ${blocks}_upd after update on ${daily} referencing old table as old_rows new table as new_rows for each statement execute function ${blocks}_apply();
    create trigger ${blocks}_del after delete on ${daily} referencing old table as old_rows for each statement execute function ${blocks}_apply();
    -- A truncate fires no delete trigger: the blocks go with it (a backfill truncates and refills).
    create function ${blocks}_clear() returns trigger language plpgsql as $$
    begin
      truncate ${blocks};
      return null;
    end $$;
    create trigger ${blocks}_trunc after truncate on ${daily} for each statement execute function ${blocks}_clear();

    -- Filled from what the daily table holds, a block at a time as a report reads them.
    insert into ${blocks} (block, day, ${KEY.join(', ')}, n, ${facts.join(', ')})
    select * from (${blockRowsSql(`select day, ${KEY.join(', ')}, 1 as n, ${facts.join(', ')} from ${daily}`, facts)}) x
    order by ${ORDER};
    analyze ${blocks};`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(tableAndTriggers('campaign_stats_daily', 'campaign_stats_blocks', STATS_FACTS)).execute(db);
  await sql.raw(tableAndTriggers('campaign_order_daily', 'campaign_order_blocks', ORDER_FACTS)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger campaign_stats_blocks_ins on campaign_stats_daily;
    drop trigger campaign_stats_blocks_upd on campaign_stats_daily;
    drop trigger campaign_stats_blocks_del on campaign_stats_daily;
    drop trigger campaign_stats_blocks_trunc on campaign_stats_daily;
    drop function campaign_stats_blocks_apply();
    drop function campaign_stats_blocks_clear();
    drop table campaign_stats_blocks;
    drop trigger campaign_order_blocks_ins on campaign_order_daily;
    drop trigger campaign_order_blocks_upd on campaign_order_daily;
    drop trigger campaign_order_blocks_del on campaign_order_daily;
    drop trigger campaign_order_blocks_trunc on campaign_order_daily;
    drop function campaign_order_blocks_apply();
    drop function campaign_order_blocks_clear();
    drop table campaign_order_blocks;
  `.execute(db);
}
