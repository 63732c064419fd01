import { Migrator, type Migration } from 'kysely';
import type { Db } from './database.ts';
import * as m0001 from './migrations/0001_init.ts';
import * as m0002 from './migrations/0002_assets.ts';
import * as m0003 from './migrations/0003_jobs.ts';
import * as m0004 from './migrations/0004_materials.ts';
import * as m0005 from './migrations/0005_bilingual_messages.ts';
import * as m0006 from './migrations/0006_role_scopes.ts';
import * as m0007 from './migrations/0007_oauth_browser.ts';
import * as m0008 from './migrations/0008_job_processes.ts';
import * as m0009 from './migrations/0009_user_preferences.ts';
import * as m0010 from './migrations/0010_ad_data.ts';
import * as m0011 from './migrations/0011_orders.ts';
import * as m0012 from './migrations/0012_cohorts.ts';
import * as m0013 from './migrations/0013_publish.ts';
import * as m0014 from './migrations/0014_hosting_rules.ts';
import * as m0015 from './migrations/0015_report_rollups.ts';
import * as m0017 from './migrations/0017_report_indexes.ts';
import * as m0018 from './migrations/0018_page_posts.ts';
import * as m0019 from './migrations/0019_cohort_dirty.ts';
import * as m0022 from './migrations/0022_ads_owner_index.ts';
import * as m0023 from './migrations/0023_campaign_order_rollup.ts';
import * as m0024 from './migrations/0024_scheduled_posts.ts';
import * as m0025 from './migrations/0025_campaign_blocks.ts';
import * as m0026 from './migrations/0026_post_cancel.ts';

/** Every migration, in order. Merged migrations are never edited; add a new one instead. */
const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_assets': m0002,
  '0003_jobs': m0003,
  '0004_materials': m0004,
  '0005_bilingual_messages': m0005,
  '0006_role_scopes': m0006,
  '0007_oauth_browser': m0007,
  '0008_job_processes': m0008,
  '0009_user_preferences': m0009,
  '0010_ad_data': m0010,
  '0011_orders': m0011,
  '0012_cohorts': m0012,
  '0013_publish': m0013,
  '0014_hosting_rules': m0014,
  '0015_report_rollups': m0015,
  '0017_report_indexes': m0017,
  '0018_page_posts': m0018,
  '0019_cohort_dirty': m0019,
  '0022_ads_owner_index': m0022,
  '0023_campaign_order_rollup': m0023,
  '0024_scheduled_posts': m0024,
  '0025_campaign_blocks': m0025,
  '0026_post_cancel': m0026,
};

/** Brings the schema up to date; Kysely holds an advisory lock so concurrent servers take turns. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
