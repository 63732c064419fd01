import { ADS_READ } from '../domain.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { EdgeDef, NodeDef } from '../graph/node.ts';
import { paginate } from '../graph/paging.ts';
import { Params, parseFields } from '../graph/params.ts';
import { parseQuery, runInsights, type InsightsNode } from '../insights/engine.ts';
import type { ReportRunRecord } from '../store/state.ts';
import { formatGraphTime } from '../time.ts';
import { userCanUseAccount } from './common.ts';

// Insights edges (sync `GET …/insights`, async `POST …/insights` → report run) and the
// report run node (reference §12).

/** Parameters of a report run request that are not part of the query. */
const NOT_QUERY = new Set(['access_token', 'appsecret_proof', 'limit', 'after', 'before', 'summary']);

function syncInsights(ctx: GraphContext, node: InsightsNode, accountId: string, asOf: number): unknown {
  const account = ctx.sim.store.account(accountId)!;
  const query = parseQuery(ctx, node, account, asOf);
  return paginate(ctx, runInsights(ctx, node, account, query, asOf));
}

function createReportRun(ctx: GraphContext, node: InsightsNode, accountId: string): unknown {
  const account = ctx.sim.store.account(accountId)!;
  // Validate now, so a bad query fails at once rather than as a failed job.
  parseQuery(ctx, node, account, ctx.now);
  const params = Object.fromEntries(Object.entries(ctx.params.toRecord()).filter(([k, v]) => !NOT_QUERY.has(k) && v !== undefined));
  const run: ReportRunRecord = {
    id: ctx.sim.store.newId(),
    account_id: accountId,
    node_id: node.id,
    node_type: node.kind,
    params,
    created_at: ctx.now,
    completes_at: ctx.now + ctx.sim.store.state.settings.report_run_seconds * 1000,
    fails: ctx.sim.faults.take('POST', ctx.path, true) !== undefined,
  };
  ctx.sim.store.state.report_runs[run.id] = run;
  ctx.sim.store.changed();
  return { report_run_id: run.id };
}

/** The Insights edge of an account, campaign, ad set or ad. */
export function insightsEdge<T>(nodeOf: (obj: T) => InsightsNode, accountOf: (obj: T) => string): EdgeDef<T> {
  return {
    usage: 'ads_insights',
    scopes: { read: ADS_READ, write: ADS_READ },
    get: (ctx, obj) => syncInsights(ctx, nodeOf(obj), accountOf(obj), ctx.now),
    post: (ctx, obj) => createReportRun(ctx, nodeOf(obj), accountOf(obj)),
  };
}

function progress(run: ReportRunRecord, now: number): number {
  if (now >= run.completes_at) return 100;
  return Math.floor(((now - run.created_at) / Math.max(1, run.completes_at - run.created_at)) * 100);
}

function asyncStatus(run: ReportRunRecord, now: number): string {
  const pct = progress(run, now);
  if (pct >= 100) return run.fails ? 'Job Failed' : 'Job Completed';
  if (now === run.created_at) return 'Job Not Started';
  return pct < 10 ? 'Job Started' : 'Job Running';
}

export function reportRunNode(): NodeDef<ReportRunRecord> {
  const failed = (run: ReportRunRecord, ctx: GraphContext) => asyncStatus(run, ctx.now) === 'Job Failed';
  const error = errors.asyncReportFailed();
  return {
    kind: 'reportrun',
    typeName: 'AdReportRun',
    load: (ctx, id) => ctx.sim.store.state.report_runs[id],
    visible: (ctx, run) => userCanUseAccount(ctx, ctx.sim.store.account(run.account_id)),
    accountId: (run) => run.account_id,
    fields: {
      id: (run) => run.id,
      account_id: (run) => run.account_id,
      async_status: (run, ctx) => asyncStatus(run, ctx.now),
      async_percent_completion: (run, ctx) => progress(run, ctx.now),
      date_start: (run, ctx) => reportRange(ctx, run).since,
      date_stop: (run, ctx) => reportRange(ctx, run).until,
      time_ref: (run) => Math.floor(run.created_at / 1000),
      time_completed: (run, ctx) => (ctx.now >= run.completes_at ? Math.floor(run.completes_at / 1000) : undefined),
      is_running: (run, ctx) => ctx.now < run.completes_at,
      error_code: (run, ctx) => (failed(run, ctx) ? error.code : undefined),
      error_subcode: (run, ctx) => (failed(run, ctx) ? error.subcode : undefined),
      error_message: (run, ctx) => (failed(run, ctx) ? error.message : undefined),
      error_user_title: (run, ctx) => (failed(run, ctx) ? 'Report failed' : undefined),
      error_user_msg: (run, ctx) => (failed(run, ctx) ? 'The report could not be completed. Please run it again.' : undefined),
      created_time: (run, ctx) => formatGraphTime(run.created_at, ctx.sim.store.account(run.account_id)?.timezone_name),
    },
    defaultFields: ['id', 'account_id', 'time_ref', 'time_completed', 'async_status', 'async_percent_completion', 'date_start', 'date_stop', 'is_running'],
    scopes: { read: ADS_READ, write: ADS_READ },
    edges: {
      insights: {
        usage: 'ads_insights',
        get: (ctx, run) => {
          const status = asyncStatus(run, ctx.now);
          if (status === 'Job Failed') throw errors.asyncReportFailed();
          if (status !== 'Job Completed') throw errors.invalidParameter(`Report ${run.id} is not ready (${status}); poll it until async_status is Job Completed`);
          const stored = new Params({ ...run.params, limit: ctx.params.value('limit'), after: ctx.params.value('after'), before: ctx.params.value('before') });
          const reportCtx: GraphContext = { ...ctx, params: stored, fields: parseFields(stored.string('fields')) };
          // Results are as of the request, not of the poll.
          return syncInsights(reportCtx, { kind: run.node_type, id: run.node_id } as InsightsNode, run.account_id, run.created_at);
        },
      },
    },
  };
}

function reportRange(ctx: GraphContext, run: ReportRunRecord) {
  const account = ctx.sim.store.account(run.account_id)!;
  const runCtx: GraphContext = { ...ctx, params: new Params(run.params), fields: parseFields(new Params(run.params).string('fields')) };
  return parseQuery(runCtx, { kind: run.node_type, id: run.node_id } as InsightsNode, account, run.created_at).range;
}
