import { refreshRollupsJob } from '../features/ad-data/dim-rollups.job.ts';
import { backfillAdDataJob, copyAdObjectsJob, pruneAdHourlyJob, reconcileAdOperationsJob, syncAdAccountJob, syncAdDataJob } from '../features/ad-data/ad-data.jobs.ts';
import { checkMaterialPushesJob, cleanupMaterialUploadsJob, pushMaterialsJob } from '../features/materials/materials.jobs.ts';
import { deliverNotificationsJob, systemAlertsJob } from '../features/notifications/notifications.jobs.ts';
import { checkTokensJob, syncPersonalAccountsJob } from '../features/personal-accounts/personal-accounts.jobs.ts';
import { publishSchemeJob, publishStartJob } from '../features/publish/publish.jobs.ts';
import { refreshCohortsJob } from '../features/orders/cohorts.job.ts';
import { pagePostsJob } from '../features/posts/posts.service.ts';
import { runHostingRulesJob } from '../features/rules/rules.jobs.ts';
import { cleanupSessionsJob } from './cleanup-sessions.job.ts';
import type { AnyJobDefinition } from './types.ts';

/**
 * Every background job, so one file shows all that runs on a timer (STYLE.md §6). Add a job by
 * defining it with defineJob() next to its feature and listing it here; its queue and schedule
 * are created when the runner starts. Jobs are run by name: `jobs.enqueue('<name>', data)`.
 */
export const jobRegistry: readonly AnyJobDefinition[] = [
  cleanupSessionsJob,
  syncPersonalAccountsJob,
  checkTokensJob,
  pushMaterialsJob,
  checkMaterialPushesJob,
  cleanupMaterialUploadsJob,
  syncAdDataJob,
  backfillAdDataJob,
  syncAdAccountJob,
  pruneAdHourlyJob,
  reconcileAdOperationsJob,
  refreshCohortsJob,
  refreshRollupsJob,
  publishSchemeJob,
  publishStartJob,
  pagePostsJob,
  copyAdObjectsJob,
  runHostingRulesJob,
  deliverNotificationsJob,
  systemAlertsJob,
];
