import { COHORT_MAX_AGE, endpoints, type Lang, type OrderDailyFigures, type OrderDailyRow, type OrderRow } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import { pickColumns, sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { OrderReportService } from './order-reports.service.ts';

// The order screens' calls (订单列表, 订单分析): lists, detail, analysis and their .xlsx exports.
// Scope and validation live in the service; exports hold what the screens show.

const api = endpoints.orders;

const t = (zh: string, en: string) => ({ zh, en });
const STATUS = { paid: t('已支付', 'Paid'), partially_refunded: t('部分退款', 'Partially refunded'), refunded: t('已退款', 'Refunded') };
const SOURCE = { landing_url: t('落地页链接', 'Landing URL'), payload: t('站点回传 ID', 'IDs sent by the site'), organic: t('自然量', 'Organic') };
const SPLIT = { none: t('', ''), site: t('站点', 'Site'), drama: t('剧集', 'Drama'), product: t('商品', 'Product'), country: t('国家', 'Country') };
const NONE = { site: t('（无）', '(none)'), drama: t('（未关联剧集）', '(no drama)'), product: t('（未关联商品）', '(no product)'), country: t('（未知）', '(unknown)') };

const when = (s: string | null) => (s ? s.replace('T', ' ').slice(0, 19) : '');
const money = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

function orderColumns(lang: Lang): XlsxColumn<OrderRow>[] {
  const h = (zh: string, en: string) => (lang === 'zh' ? zh : en);
  return [
    { key: 'order_no', header: h('订单号', 'Order no.'), width: 24, value: (o) => o.order_no },
    { key: 'paid_at', header: h('支付时间 (UTC)', 'Paid at (UTC)'), width: 20, value: (o) => when(o.paid_at) },
    { key: 'paid_at', header: h('支付日', 'Paid day'), width: 12, value: (o) => o.paid_day },
    { key: 'site', header: h('站点', 'Site'), width: 20, value: (o) => o.site_name },
    { key: 'amount', header: h('金额', 'Amount'), width: 12, value: (o) => Number(o.amount) },
    { key: 'amount', header: h('币种', 'Currency'), width: 8, value: (o) => o.currency },
    { key: 'refunded', header: h('已退款', 'Refunded'), width: 12, value: (o) => Number(o.refunded_amount) },
    { key: 'paid_usd', header: h('金额 (USD)', 'Amount (USD)'), width: 14, value: (o) => money(o.paid_usd) },
    { key: 'usd_amount', header: h('净额 (USD)', 'Net (USD)'), width: 14, value: (o) => money(o.usd_amount) },
    { key: 'status', header: h('状态', 'Status'), width: 12, value: (o) => STATUS[o.status][lang] },
    { key: 'buyer', header: h('用户 ID', 'App user id'), width: 20, value: (o) => o.app_user_id },
    { key: 'buyer', header: h('新老用户', 'New / returning'), width: 10, value: (o) => (o.is_new_payer ? h('新付费', 'New') : h('复购', 'Returning')) },
    { key: 'country', header: h('国家', 'Country'), width: 8, value: (o) => o.country ?? '' },
    { key: 'content', header: h('剧集 / 商品', 'Drama / product'), width: 24, value: (o) => o.drama_name ?? o.product_name ?? o.drama_external_id ?? o.product_external_id ?? '' },
    { key: 'content', header: h('集数 / 数量', 'Episode / quantity'), width: 10, value: (o) => o.episode ?? o.quantity ?? null },
    { key: 'attribution', header: h('归因方式', 'Attributed by'), width: 14, value: (o) => SOURCE[o.attribution_source ?? 'organic'][lang] },
    { key: 'attribution', header: h('广告系列 ID', 'Campaign id'), width: 20, value: (o) => o.campaign_id ?? '' },
    { key: 'attribution', header: h('广告系列', 'Campaign'), width: 28, value: (o) => o.campaign?.name ?? '' },
    { key: 'attribution', header: h('广告组 ID', 'Ad set id'), width: 20, value: (o) => o.adset_id ?? '' },
    { key: 'attribution', header: h('广告 ID', 'Ad id'), width: 20, value: (o) => o.ad_id ?? '' },
    { key: 'attribution', header: h('广告', 'Ad'), width: 28, value: (o) => o.ad?.name ?? '' },
    { key: 'source', header: h('来源', 'Source'), width: 10, value: (o) => (o.source === 'webhook' ? 'Webhook' : h('导入', 'Import')) },
  ];
}

const DAILY_HEADERS: Record<keyof Omit<OrderDailyFigures, 'refunds'>, { zh: string; en: string }> = {
  orders: t('订单数', 'Orders'),
  paid_usd: t('支付金额 (USD)', 'Paid (USD)'),
  refunds_usd: t('退款 (USD)', 'Refunds (USD)'),
  revenue_usd: t('收入 (USD)', 'Revenue (USD)'),
  payers: t('付费人数', 'Payers'),
  new_payers: t('新付费人数', 'New payers'),
  arppu: t('ARPPU (USD)', 'ARPPU (USD)'),
};

type DailyLine = OrderDailyRow | { total: true; figures: OrderDailyFigures };

export function orderReportRoutes(reports: OrderReportService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.list, async (req) => reports.list(req.ctx(), req.body));
    endpoint(app, api.detail, async (req) => reports.detail(req.ctx(), req.body.id));
    endpoint(app, api.options, async (req) => reports.options(req.ctx(), req.body));
    endpoint(app, api.daily, async (req) => reports.daily(req.ctx(), req.body));
    endpoint(app, api.cohort, async (req) => reports.cohort(req.ctx(), req.body));

    endpoint(app, api.export, async (req, reply) => {
      const zh = req.lang === 'zh';
      const range = req.body.paid_from || req.body.paid_to ? `-${req.body.paid_from ?? ''}_${req.body.paid_to ?? ''}` : '';
      return sendXlsx<OrderRow>(reply, `${zh ? '订单列表' : 'orders'}${range}.xlsx`, zh ? '订单' : 'Orders', pickColumns(orderColumns(req.lang), req.body.columns), (page) =>
        reports.exportRows(req.ctx(), req.body, page),
      );
    });

    endpoint(app, api.daily_export, async (req, reply) => {
      const lang = req.lang;
      const split = req.body.split ?? 'none';
      const figure = (k: keyof typeof DAILY_HEADERS) => (l: DailyLine) => {
        const f = 'total' in l ? l.figures : l;
        return k === 'orders' || k === 'payers' || k === 'new_payers' ? f[k] : money(f[k]);
      };
      const all: XlsxColumn<DailyLine>[] = [
        { key: 'day', header: lang === 'zh' ? '日期' : 'Day', width: 12, value: (l) => ('total' in l ? (lang === 'zh' ? '合计' : 'Total') : l.day) },
        ...(split === 'none'
          ? []
          : [{ key: 'key', header: SPLIT[split][lang], width: 24, value: (l: DailyLine) => ('total' in l ? '' : l.key?.name || NONE[split][lang]) }]),
        ...(Object.keys(DAILY_HEADERS) as (keyof typeof DAILY_HEADERS)[]).map((k) => ({ key: k, header: DAILY_HEADERS[k][lang], width: 14, value: figure(k) })),
        { key: 'refunds_usd', header: lang === 'zh' ? '退款笔数' : 'Refunds', width: 10, value: (l: DailyLine) => ('total' in l ? l.figures.refunds : l.refunds) },
      ];
      const file = `${lang === 'zh' ? '订单分析' : 'order-analysis'}-${req.body.date_from}_${req.body.date_to}.xlsx`;
      return sendXlsx<DailyLine>(reply, file, lang === 'zh' ? '每日' : 'Daily', pickColumns(all, req.body.columns), async (page) => {
        const r = await reports.dailyExportRows(req.ctx(), req.body, page);
        // The totals row closes the file once the slice reaches the last row.
        return page.offset === 0 && r.rows.length < page.limit ? [...r.rows, { total: true as const, figures: r.totals }] : r.rows;
      });
    });

    endpoint(app, api.cohort_export, async (req, reply) => {
      const lang = req.lang;
      const zh = lang === 'zh';
      const c = await reports.cohort(req.ctx(), req.body);
      const ages = req.body.ages ?? Array.from({ length: COHORT_MAX_AGE + 1 }, (_, n) => n);
      const roi = c.metric === 'roi';
      const notMatured = zh ? '未成熟' : 'Not matured';
      type Line = { day: string; new_payers: number; spend: (n: number) => number | null; revenue: (number | null)[] };
      const lines: Line[] = [
        ...c.rows.map((r) => ({ day: r.day, new_payers: r.new_payers, spend: () => r.spend_usd, revenue: r.revenue_usd })),
        { day: zh ? '合计' : 'Total', new_payers: c.totals.new_payers, spend: (n: number) => c.totals.spend_usd[n] ?? null, revenue: c.totals.revenue_usd },
      ];
      const cell = (l: Line, n: number) => {
        const v = l.revenue[n];
        if (v === null || v === undefined) return notMatured;
        if (!roi) return money(v);
        const spend = l.spend(n);
        return spend ? Math.round((v / spend) * 10000) / 100 : null;
      };
      const columns: XlsxColumn<Line>[] = [
        { header: zh ? '获客日' : 'Acquisition day', width: 14, value: (l) => l.day },
        { header: zh ? '新付费人数' : 'New payers', width: 12, value: (l) => l.new_payers },
        ...(roi ? [{ header: zh ? '花费 (USD)' : 'Spend (USD)', width: 14, value: (l: Line) => money(l.spend(0)) }] : []),
        ...ages.map((n) => ({ header: roi ? `D${n} ROI (%)` : `D${n} (USD)`, width: 12, value: (l: Line) => cell(l, n) })),
      ];
      const file = `${zh ? '同期群' : 'cohorts'}-${roi ? 'roi' : 'revenue'}-${req.body.date_from}_${req.body.date_to}.xlsx`;
      return sendXlsx<Line>(reply, file, zh ? '同期群' : 'Cohorts', columns, async (page) => lines.slice(page.offset, page.offset + page.limit));
    });
  };
}
