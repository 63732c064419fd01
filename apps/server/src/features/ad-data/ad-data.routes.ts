import {
  AD_ADMIN_PATHS,
  AD_LOG_PATHS,
  AD_REPORT_PATHS,
  adHourlyBodySchema,
  adHourlyResultSchema,
  adOperationSchema,
  adOperationsBodySchema,
  adOpsApplyBodySchema,
  adOpsCopyBodySchema,
  adOpsResultSchema,
  adReportBodySchema,
  adReportResultSchema,
  adSyncBodySchema,
  adSyncResultSchema,
  envelope,
  fxRateSchema,
  fxRatesBodySchema,
  metrics,
  pageResultSchema,
  saveFxRateBodySchema,
  textIn,
  type AdOperation,
  type AdReportRow,
  type Lang,
  type MetricKey,
  METRIC_KEYS,
} from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { ok } from '../../lib/reply.ts';
import { sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { AdLogService } from './ad-logs.service.ts';
import type { AdOperations, OpResult } from './ad-ops.service.ts';
import type { AdReportService } from './ad-reports.service.ts';
import type { FxService } from './fx.service.ts';

// Ad data endpoints (docs/ad-data-design.md; paths of SPEC.md / PRODUCT.md). Every list, export,
// chart and action applies data scope in its service.

const REPORTS = [...AD_REPORT_PATHS, ...AD_ADMIN_PATHS];
const LOGS = [...AD_LOG_PATHS, '/admin/advertising/details'];

export interface AdDataServices {
  reports: AdReportService;
  /** Absent when the server runs without an ad platform: actions then say so. */
  ops: AdOperations | undefined;
  logs: AdLogService;
  fx: FxService;
}

const LEVEL_TITLE: Record<string, { zh: string; en: string }> = {
  optimizer: { zh: '投手', en: 'Optimizer' },
  account: { zh: '广告账户', en: 'Ad account' },
  campaign: { zh: '广告系列', en: 'Campaign' },
  adset: { zh: '广告组', en: 'Ad set' },
  ad: { zh: '广告', en: 'Ad' },
};

const ACTION_TITLE: Record<string, { zh: string; en: string }> = {
  activate: { zh: '开启', en: 'Switch on' },
  pause: { zh: '关闭', en: 'Pause' },
  budget: { zh: '修改预算', en: 'Budget' },
  bid: { zh: '修改出价', en: 'Bid' },
  rename: { zh: '重命名', en: 'Rename' },
  copy: { zh: '复制', en: 'Copy' },
  delete: { zh: '删除', en: 'Delete' },
  create: { zh: '创建', en: 'Create' },
};

function opView(r: OpResult, lang: Lang) {
  return { ...r, error: r.error ? textIn(r.error, lang) : null, warnings: r.warnings.map((w) => textIn(w, lang)) };
}

/** A metric as a spreadsheet number, rounded as shown. */
const cell = (key: MetricKey, v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? null : Number(v.toFixed(metrics[key].decimals)));

function requireOps(ops: AdOperations | undefined): AdOperations {
  if (!ops) throw new AppError('PLATFORM_NOT_CONFIGURED');
  return ops;
}

export function adDataRoutes(s: AdDataServices): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['ad-data'];

    app.post('/ad-reports/list', { schema: { tags, body: adReportBodySchema, response: { 200: envelope(adReportResultSchema) } }, config: { paths: REPORTS } }, async (req) => ok(await s.reports.list(req.ctx(), req.body)));

    app.post('/ad-reports/export', { schema: { tags, body: adReportBodySchema }, config: { paths: REPORTS } }, async (req, reply) => {
      const lang = req.lang;
      const zh = lang === 'zh';
      const keys = req.body.columns?.length ? req.body.columns : METRIC_KEYS.filter((k) => metrics[k].defaultVisible);
      const level = LEVEL_TITLE[req.body.level]!;
      const columns: XlsxColumn<AdReportRow>[] = [
        { header: level[lang], width: 32, value: (r) => r.name },
        { header: 'ID', width: 22, value: (r) => r.platform_id ?? (r.id || '') },
        ...(req.body.level !== 'optimizer' && req.body.level !== 'account' ? [{ header: zh ? '广告账户' : 'Ad account', width: 24, value: (r: AdReportRow) => r.ad_account?.name ?? '' }, { header: zh ? '投手' : 'Optimizer', width: 14, value: (r: AdReportRow) => r.owner?.name ?? (zh ? '未分配' : 'Unassigned') }, { header: zh ? '状态' : 'Status', width: 14, value: (r: AdReportRow) => r.effective_status ?? '' }] : []),
        ...keys.map((k) => ({ header: metrics[k].title[lang], width: 14, value: (r: AdReportRow) => cell(k, r.metrics[k]) })),
      ];
      const file = `${zh ? '广告数据' : 'ad-data'}-${req.body.level}-${req.body.date_from}_${req.body.date_to}.xlsx`;
      return sendXlsx(reply, file, level[lang], columns, (page) => s.reports.exportRows(req.ctx(), req.body, page));
    });

    app.post('/ad-reports/hourly', { schema: { tags, body: adHourlyBodySchema, response: { 200: envelope(adHourlyResultSchema) } }, config: { paths: REPORTS } }, async (req) => ok(await s.reports.hourly(req.ctx(), req.body)));

    app.post('/ad-reports/sync', { schema: { tags, body: adSyncBodySchema, response: { 200: envelope(adSyncResultSchema) } }, config: { paths: [...AD_REPORT_PATHS] } }, async (req) => ok(await s.reports.syncNow(req.ctx(), req.body)));

    app.post('/ad-ops/apply', { schema: { tags, body: adOpsApplyBodySchema, response: { 200: envelope(adOpsResultSchema) } }, config: { paths: REPORTS } }, async (req) => {
      const ctx = req.ctx();
      const result = await requireOps(s.ops).apply({ type: 'user', actor: ctx.actor }, req.body);
      return ok({ batch_id: result.batch_id, results: result.results.map((r) => opView(r, ctx.lang)) });
    });

    app.post('/ad-ops/copy', { schema: { tags, body: adOpsCopyBodySchema, response: { 200: envelope(adOpsResultSchema) } }, config: { paths: [...AD_REPORT_PATHS] } }, async (req) => {
      const ctx = req.ctx();
      const result = await requireOps(s.ops).copy({ type: 'user', actor: ctx.actor }, req.body);
      return ok({ batch_id: result.batch_id, results: result.results.map((r) => opView(r, ctx.lang)) });
    });

    app.post('/ad-operations/list', { schema: { tags, body: adOperationsBodySchema, response: { 200: envelope(pageResultSchema(adOperationSchema)) } }, config: { paths: LOGS } }, async (req) => ok(await s.logs.list(req.ctx(), req.body)));

    app.post('/ad-operations/export', { schema: { tags, body: adOperationsBodySchema }, config: { paths: LOGS } }, async (req, reply) => {
      const lang = req.lang;
      const zh = lang === 'zh';
      const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
      const columns: XlsxColumn<AdOperation>[] = [
        { header: zh ? '时间' : 'Time', width: 20, value: (o) => o.created_at.replace('T', ' ').slice(0, 19) },
        { header: zh ? '操作人' : 'By', width: 16, value: (o) => o.actor?.name ?? (o.actor_type === 'rule' ? `${zh ? '规则' : 'Rule'} #${o.rule_id}` : o.actor_type) },
        { header: zh ? '操作' : 'Action', width: 12, value: (o) => ACTION_TITLE[o.action]?.[lang] ?? o.action },
        { header: zh ? '层级' : 'Level', width: 10, value: (o) => LEVEL_TITLE[o.level]?.[lang] ?? o.level },
        { header: zh ? '对象' : 'Object', width: 30, value: (o) => o.object_name },
        { header: 'ID', width: 20, value: (o) => o.object_platform_id },
        { header: zh ? '广告账户' : 'Ad account', width: 24, value: (o) => o.ad_account.name },
        { header: zh ? '修改前' : 'Before', width: 30, value: (o) => json(o.before) },
        { header: zh ? '修改后' : 'After', width: 30, value: (o) => json(o.after) },
        { header: zh ? '结果' : 'Result', width: 10, value: (o) => (o.result === 'ok' ? (zh ? '成功' : 'OK') : o.result === 'failed' ? (zh ? '失败' : 'Failed') : zh ? '进行中' : 'Pending') },
        { header: zh ? '原因' : 'Reason', width: 40, value: (o) => o.error ?? '' },
      ];
      return sendXlsx(reply, zh ? '操作日志.xlsx' : 'operation-log.xlsx', zh ? '操作日志' : 'Operations', columns, (page) => s.logs.exportRows(req.ctx(), req.body, page));
    });

    app.post('/fx-rates/list', { schema: { tags, body: fxRatesBodySchema, response: { 200: envelope(pageResultSchema(fxRateSchema)) } }, config: { paths: REPORTS } }, async (req) => ok(await s.fx.list(req.body)));

    app.post('/fx-rates/save', { schema: { tags, body: saveFxRateBodySchema, response: { 200: envelope(z.object({ updated_rows: z.number().int() })) } }, config: { paths: [...AD_REPORT_PATHS] } }, async (req) => ok(await s.fx.save(req.ctx(), req.body)));
  };
}
