import type { CronJob, JobRun, ListJobRunsBody, UpdateCronJobBody } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { effectiveSchedule, isValidCron, nextRunAt } from '../../jobs/schedule.ts';
import type { AnyJobDefinition, Jobs } from '../../jobs/types.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { iso } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.service.ts';
import type { TaskService } from '../tasks/tasks.service.ts';
import { lockSetting, settingsOf, upsertSetting } from './sys-cron.repository.ts';

export interface CronServiceDeps {
  db: Db;
  jobs: Jobs;
  clock: Clock;
  /** Runs are tasks: their history and last runs come from there. */
  tasks: Pick<TaskService, 'history' | 'lastRuns'>;
}

/** The cron screen (/admin/sys/cron): every registered job, its schedule in force, last and next run; edits, run now, history. */
export function createCronService({ db, jobs, clock, tasks }: CronServiceDeps) {
  function definition(name: string): AnyJobDefinition {
    const def = jobs.registry.get(name);
    if (!def) throw new AppError('JOB_NOT_FOUND', { name }, 'name');
    return def;
  }

  async function rows(ctx: Pick<RequestContext, 'lang'>, defs: AnyJobDefinition[]): Promise<CronJob[]> {
    const names = defs.map((d) => d.name);
    const [settings, lastRuns] = await Promise.all([settingsOf(db, names), tasks.lastRuns(ctx.lang, names)]);
    const now = clock.now();
    return defs.map((def) => {
      const setting = settings.find((s) => s.name === def.name);
      const { schedule, enabled, firing } = effectiveSchedule(def, setting);
      return {
        name: def.name,
        title: def.title[ctx.lang],
        description: typeof def.description === 'string' ? def.description : def.description[ctx.lang],
        schedule,
        default_schedule: def.defaultSchedule,
        enabled,
        overridden: Boolean(setting && setting.schedule !== null),
        last_run: lastRuns.get(def.name) ?? null,
        next_run_at: firing ? iso(nextRunAt(firing, now)) : null,
        updated_by_name: setting?.updated_by_name ?? null,
        updated_at: iso(setting?.updated_at),
      };
    });
  }

  return {
    async list(ctx: Pick<RequestContext, 'lang'>): Promise<{ list: CronJob[]; total: number }> {
      const list = await rows(ctx, [...jobs.registry.values()]);
      return { list, total: list.length };
    },

    /** Changes a job's schedule (null = back to the default) or switches it on or off; pg-boss fires the new schedule at once. */
    async update(ctx: RequestContext, body: UpdateCronJobBody): Promise<CronJob> {
      const def = definition(body.name);
      if (body.schedule && !isValidCron(body.schedule)) throw new AppError('CRON_INVALID', {}, 'schedule');
      // Normalise spacing, so the stored schedule reads the way it is shown.
      const schedule = body.schedule === undefined ? undefined : body.schedule === null ? null : body.schedule.trim().split(/\s+/).join(' ');
      await db.transaction().execute(async (trx) => {
        const before = await lockSetting(trx, def.name);
        const after = {
          schedule: schedule === undefined ? (before?.schedule ?? null) : schedule,
          enabled: body.enabled === undefined ? (before?.enabled ?? true) : body.enabled,
        };
        await upsertSetting(trx, def.name, { ...after, updated_by: ctx.actor.id, updated_at: clock.now() });
        await writeAudit(trx, ctx, { action: 'job.update', entity_type: 'job', entity_id: def.name, before: before ?? null, after });
      });
      await jobs.applySchedules(def.name);
      return (await rows(ctx, [def]))[0]!;
    },

    /** Queues a run now, whatever the schedule (a disabled job too); the same runner and record as scheduled runs. */
    async runNow(ctx: RequestContext, name: string): Promise<{ task_id: number }> {
      const def = definition(name);
      const id = await jobs.enqueue(def.name, {}, { createdBy: ctx.actor.id });
      await writeAudit(db, ctx, { action: 'job.run_now', entity_type: 'job', entity_id: def.name, after: { task_id: id } });
      return { task_id: id };
    },

    async runs(ctx: Pick<RequestContext, 'lang'>, body: ListJobRunsBody): Promise<{ list: JobRun[]; total: number }> {
      return tasks.history(ctx.lang, body);
    },
  };
}

export type CronService = ReturnType<typeof createCronService>;
