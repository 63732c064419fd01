import { both } from '@ads/contracts';
import { defineJob } from '../../jobs/types.ts';
import { drainAllCohorts } from './cohorts.ts';

/** Pairs per transaction: a backlog (a large import) is drained in short steps. */
const STEP = 500;

/**
 * Drains the cohort log (migration 0019_cohort_dirty): every (ad, day) whose orders, buyers or
 * refunds changed since the last drain gets its ad_order_daily row recomputed (which marks the
 * dimension rollups in turn). The order service drains a few seconds after each intake; this
 * catches what another process or a failed drain left, so figures are at most a minute or two old.
 */
export const refreshCohortsJob = defineJob({
  name: 'refresh-order-cohorts',
  title: { zh: '更新订单同期群', en: 'Refresh order cohorts' },
  description: {
    zh: '每分钟把新到的订单和退款计入各广告每天的收入、付费人数和 D0–D30 同期群数据。',
    en: 'Every minute, counts new orders and refunds into each ad’s daily revenue, payers and D0–D30 cohort figures.',
  },
  defaultSchedule: '* * * * *',
  system: true,
  expireInSeconds: 1800,
  async run({ db, signal }) {
    // Bounded: a backlog beyond this waits for the next tick (each step is its own transaction).
    const { pairs } = await drainAllCohorts(db, { step: STEP, maxRounds: 2000, signal });
    if (!pairs) return { status: 'skipped', summary: { pairs } };
    return { status: 'success', summary: { pairs }, message: both('JOB_COHORTS_REFRESHED', { pairs }) };
  },
});
