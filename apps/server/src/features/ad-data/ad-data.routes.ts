import { endpoints, metrics, METRIC_KEYS, textIn, type AdOperation, type AdReportRow, type Lang, type MetricKey } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.ts';
import { endpoint } from '../../lib/endpoint.ts';
import { pickColumns, sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { AdLogService } from './ad-logs.service.ts';
import type { AdOperations, OpResult } from './ad-ops.service.ts';
import type { AdReportService } from './ad-reports.service.ts';
import type { FxService } from './fx.service.ts';

// Ad data endpoints (docs/ad-data-design.md; paths of SPEC.md / PRODUCT.md). Every list, export,
// chart and action applies data scope in its service.

const { adReports, adOps, adOperations, fxRates } = endpoints;

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

export function adDataRoutes(s: AdDataServices): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, adReports.list, async (req) => s.reports.list(req.ctx(), req.body));

    endpoint(app, adReports.export, async (req, reply) => {
      const lang = req.lang;
      const zh = lang === 'zh';
      const keys = req.body.columns?.length ? req.body.columns : METRIC_KEYS.filter((k) => metrics[k].defaultVisible);
      const level = LEVEL_TITLE[req.body.level]!;
      const objectColumns: XlsxColumn<AdReportRow>[] =
        req.body.level === 'optimizer' || req.body.level === 'account'
          ? []
          : [
              { header: zh ? '广告账户' : 'Ad account', width: 24, value: (r) => r.ad_account?.name ?? '' },
              { header: zh ? '投手' : 'Optimizer', width: 14, value: (r) => r.owner?.name ?? (zh ? '未分配' : 'Unassigned') },
              { header: zh ? '状态' : 'Status', width: 14, value: (r) => r.effective_status ?? '' },
            ];
      const columns: XlsxColumn<AdReportRow>[] = [
        { header: level[lang], width: 32, value: (r) => r.name || (r.id === 0 ? (zh ? '未分配' : 'Unassigned') : '') },
        { header: 'ID', width: 22, value: (r) => r.platform_id ?? (r.id || '') },
        ...objectColumns,
        ...keys.map((k) => ({ header: metrics[k].title[lang], width: 14, value: (r: AdReportRow) => cell(k, r.metrics[k]) })),
      ];
      const file = `${zh ? '广告数据' : 'ad-data'}-${req.body.level}-${req.body.date_from}_${req.body.date_to}.xlsx`;
      return sendXlsx(reply, file, level[lang], columns, (page) => s.reports.exportRows(req.ctx(), req.body, page, keys));
    });

    endpoint(app, adReports.hourly, async (req) => s.reports.hourly(req.ctx(), req.body));
    endpoint(app, adReports.sync, async (req) => s.reports.syncNow(req.ctx(), req.body));

    endpoint(app, adOps.apply, async (req) => {
      const ctx = req.ctx();
      const result = await requireOps(s.ops).apply({ type: 'user', actor: ctx.actor }, req.body);
      return { batch_id: result.batch_id, results: result.results.map((r) => opView(r, ctx.lang)) };
    });

    endpoint(app, adOps.copy, async (req) => {
      const ctx = req.ctx();
      const result = await requireOps(s.ops).copy({ type: 'user', actor: ctx.actor }, req.body);
      return {
        batch_id: result.batch_id,
        results: result.results.map((r) => opView(r, ctx.lang)),
        ...(result.task_id !== undefined && { task_id: result.task_id }),
        ...(result.notes && { notes: result.notes.map((n) => textIn(n, ctx.lang)) }),
      };
    });

    endpoint(app, adOps.budget_changes, async (req) => requireOps(s.ops).budgetChanges({ type: 'user', actor: req.ctx().actor }, req.body.ids));
    endpoint(app, adOps.copy_accounts, async (req) => requireOps(s.ops).copyAccounts(req.ctx().actor, req.body.keyword));
    endpoint(app, adOps.copy_targets, async (req) => requireOps(s.ops).copyTargets(req.ctx().actor, req.body.ad_account_id));

    endpoint(app, adOperations.list, async (req) => s.logs.list(req.ctx(), req.body));

    endpoint(app, adOperations.export, async (req, reply) => {
      const lang = req.lang;
      const zh = lang === 'zh';
      const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
      // Keyed as the log table's columns (AD_OPERATION_EXPORT_COLUMNS): one screen column may be several here.
      const columns: XlsxColumn<AdOperation>[] = [
        { key: 'time', header: zh ? '时间' : 'Time', width: 20, value: (o) => o.created_at.replace('T', ' ').slice(0, 19) },
        { key: 'by', header: zh ? '操作人' : 'By', width: 16, value: (o) => o.actor?.name ?? (o.actor_type === 'rule' ? `${zh ? '规则' : 'Rule'} #${o.rule_id}` : o.actor_type) },
        { key: 'action', header: zh ? '操作' : 'Action', width: 12, value: (o) => ACTION_TITLE[o.action]?.[lang] ?? o.action },
        { key: 'object', header: zh ? '层级' : 'Level', width: 10, value: (o) => LEVEL_TITLE[o.level]?.[lang] ?? o.level },
        { key: 'object', header: zh ? '对象' : 'Object', width: 30, value: (o) => o.object_name },
        { key: 'object', header: 'ID', width: 20, value: (o) => o.object_platform_id },
        { key: 'account', header: zh ? '广告账户' : 'Ad account', width: 24, value: (o) => o.ad_account.name },
        { key: 'change', header: zh ? '修改前' : 'Before', width: 30, value: (o) => json(o.before) },
        { key: 'change', header: zh ? '修改后' : 'After', width: 30, value: (o) => json(o.after) },
        { key: 'result', header: zh ? '结果' : 'Result', width: 10, value: (o) => (o.result === 'ok' ? (zh ? '成功' : 'OK') : o.result === 'failed' ? (zh ? '失败' : 'Failed') : zh ? '进行中' : 'Pending') },
        { key: 'result', header: zh ? '原因' : 'Reason', width: 40, value: (o) => o.error ?? '' },
      ];
      return sendXlsx(reply, zh ? '操作日志.xlsx' : 'operation-log.xlsx', zh ? '操作日志' : 'Operations', pickColumns(columns, req.body.columns), (page) => s.logs.exportRows(req.ctx(), req.body, page));
    });

    endpoint(app, fxRates.list, async (req) => s.fx.list(req.body));
    endpoint(app, fxRates.save, async (req) => s.fx.save(req.ctx(), req.body));
  };
}
