import type { JobLastRun, JobRun, Lang, ListJobRunsBody, ListTasksRequest, Task } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs/types.ts';
import { isManager, isSuperAdmin, type Actor, type RequestContext } from '../../lib/actor.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { findRunRow, lastRunsOf, listRuns, toJobRun, toLastRun, toTask, type RunScope } from './tasks.repository.ts';

export interface TaskServiceDeps {
  db: Db;
  jobs: Jobs;
}

/**
 * Tasks: the runs of background jobs as the people who follow them see them (a long action's
 * progress and result, PRODUCT.md "Screens"). Everyone sees the runs they started; managers also
 * every run of the regular jobs; the super admin everything, maintenance jobs included.
 */
export function createTaskService({ db, jobs }: TaskServiceDeps) {
  const regularJobs = [...jobs.registry.values()].filter((d) => !d.system).map((d) => d.name);

  function scopeOf(actor: Actor): RunScope {
    if (isSuperAdmin(actor)) return undefined;
    return { userId: actor.id, jobNames: isManager(actor) ? regularJobs : [] };
  }

  function visible(actor: Actor, run: { created_by: number | null; job_name: string }) {
    const scope = scopeOf(actor);
    return !scope || run.created_by === actor.id || scope.jobNames.includes(run.job_name);
  }

  async function load(ctx: RequestContext, id: number) {
    const row = await findRunRow(db, id);
    if (!row) throw new AppError('TASK_NOT_FOUND');
    if (!visible(ctx.actor, row)) throw new AppError('FORBIDDEN_SCOPE');
    return row;
  }

  return {
    async list(ctx: RequestContext, body: ListTasksRequest): Promise<{ list: Task[]; total: number }> {
      const { actor } = ctx;
      // "Mine" narrows any caller's view to the runs they started.
      const scope: RunScope = body.mine ? { userId: actor.id, jobNames: [] } : scopeOf(actor);
      const { rows, total } = await listRuns(db, { jobName: body.job_name, status: body.status, sortField: body.sort_field, sortOrder: body.sort_order, page: body.page, pageSize: body.page_size }, scope);
      return { list: rows.map((r) => toTask(r, ctx.lang, jobs.registry)), total };
    },

    /** One task, for polling its progress. */
    async get(ctx: RequestContext, id: number): Promise<Task> {
      return toTask(await load(ctx, id), ctx.lang, jobs.registry);
    },

    /** Cancels a queued or running task of one's own (managers: any they see); a running one stops at its next safe point. */
    async cancel(ctx: RequestContext, id: number): Promise<Task> {
      const row = await load(ctx, id);
      if (row.status !== 'queued' && row.status !== 'running') throw new AppError('TASK_NOT_CANCELLABLE');
      if (!(await jobs.cancel(id))) throw new AppError('TASK_NOT_CANCELLABLE');
      await writeAudit(db, ctx, { action: 'task.cancel', entity_type: 'job_run', entity_id: id, before: { job_name: row.job_name, status: row.status } });
      return toTask((await findRunRow(db, id))!, ctx.lang, jobs.registry);
    },

    /** Every run of every job, with attempts and durations (the super admin's cron history; no scope). */
    async history(lang: Lang, body: ListJobRunsBody): Promise<{ list: JobRun[]; total: number }> {
      const { rows, total } = await listRuns(db, { jobName: body.name, status: body.status, sortField: body.sort_field, sortOrder: body.sort_order, page: body.page, pageSize: body.page_size }, undefined);
      return { list: rows.map((r) => toJobRun(r, lang, jobs.registry)), total };
    },

    /** The latest run of each named job. */
    async lastRuns(lang: Lang, names: readonly string[]): Promise<Map<string, JobLastRun>> {
      return new Map((await lastRunsOf(db, names)).map((r) => [r.job_name, toLastRun(r, lang)]));
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
