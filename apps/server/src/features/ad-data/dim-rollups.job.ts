import { both } from '@ads/contracts';
import { defineJob } from '../../jobs/types.ts';
import { refreshRollups } from './dim-rollups.ts';

/** Pairs per transaction: a backlog (a 28-day backfill of many accounts) is drained in short steps. */
const STEP = 100;

/**
 * Drains the rollup log (migration 0015_report_rollups): every (day, ad account) whose facts
 * changed since the last refresh is rebuilt. Readers refresh their own range too; this keeps the
 * rest within minutes of an order or a sync.
 */
export const refreshRollupsJob = defineJob({
  name: 'refresh-report-rollups',
  title: { zh: '更新维度汇总', en: 'Refresh dimension rollups' },
  description: {
    zh: '每 2 分钟把新到的订单和同步的数据汇总到剧集、素材、方案、站点、国家等维度，供首页和数据分析使用。',
    en: 'Every 2 minutes, rolls new orders and synced figures up by drama, material, scheme, site and country for the home pages and the analysis screens.',
  },
  defaultSchedule: '*/2 * * * *',
  system: true,
  expireInSeconds: 1800,
  async run({ db, signal }) {
    let pairs = 0;
    for (;;) {
      signal.throwIfAborted();
      const r = await refreshRollups(db, { maxPairs: STEP });
      pairs += r.pairs;
      if (!r.more) break;
    }
    if (!pairs) return { status: 'skipped', summary: { pairs } };
    return { status: 'success', summary: { pairs }, message: both('JOB_ROLLUPS_REFRESHED', { pairs }) };
  },
});
