import {
  adAccountSchema,
  assignUsersBodySchema,
  editAdAccountBodySchema,
  envelope,
  listAdAccountsBodySchema,
  assetPageResultSchema,
  setAdAccountHostedBodySchema,
  setAdAccountPlatformBodySchema,
  type AdAccount,
} from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import type { AdAccountService } from './ad-accounts.service.ts';
import { MATERIAL_PATHS } from '../materials/materials.service.ts';

const ACCOUNTS = ['/auth/account'] as const;
const HOSTING = ['/auth/account', '/operation/account'] as const;
/** The list also serves the materials screens (choose ad accounts to push to); data scope applies as everywhere. */
const LIST = [...HOSTING, ...MATERIAL_PATHS];

const updatedSchema = z.object({ updated: z.number().int() });
const listResultSchema = assetPageResultSchema(adAccountSchema).extend({ summary: z.object({ amount_spent_usd: z.number(), balance_usd: z.number() }) });

/** account_status of reference §2, as people read it. */
const STATUS_LABELS: Record<number, { zh: string; en: string }> = {
  1: { zh: '正常', en: 'Active' },
  2: { zh: '已停用', en: 'Disabled' },
  3: { zh: '未结清', en: 'Unsettled' },
  7: { zh: '风控审核中', en: 'Pending risk review' },
  8: { zh: '待结算', en: 'Pending settlement' },
  9: { zh: '宽限期', en: 'In grace period' },
  100: { zh: '待关闭', en: 'Pending closure' },
  101: { zh: '已关闭', en: 'Closed' },
};

const exportHeaders = {
  zh: ['ID', '广告账户ID', '名称', '状态', '币种', '时区', '已花费', '余额', '花费上限', '商务管理平台', '平台', '托管', '个号', '负责人', '备注', '最近同步'],
  en: ['ID', 'Ad account ID', 'Name', 'Status', 'Currency', 'Time zone', 'Amount spent', 'Balance', 'Spend cap', 'Business', 'Platform', 'Hosted', 'Personal accounts', 'Users', 'Remark', 'Last synced'],
};

/** Ad accounts (广告账户, 广告托管), docs/api-assets.md. */
export function adAccountRoutes(accounts: AdAccountService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['ad-accounts'];
    app.post('/ad-accounts/list', { schema: { tags, body: listAdAccountsBodySchema, response: { 200: envelope(listResultSchema) } }, config: { paths: LIST } }, async (req) =>
      ok(await accounts.list(req.ctx(), req.body)),
    );

    app.post('/ad-accounts/export', { schema: { tags, body: listAdAccountsBodySchema }, config: { paths: ACCOUNTS } }, async (req, reply) => {
      const lang = req.lang;
      const h = exportHeaders[lang];
      const zh = lang === 'zh';
      const when = (s: string | null) => (s ? s.replace('T', ' ').slice(0, 19) : '');
      return sendXlsx<AdAccount>(reply, zh ? '广告账户.xlsx' : 'ad-accounts.xlsx', zh ? '广告账户' : 'Ad accounts', [
        { header: h[0]!, width: 8, value: (a) => a.id },
        { header: h[1]!, width: 22, value: (a) => a.platform_id },
        { header: h[2]!, width: 28, value: (a) => a.name },
        { header: h[3]!, width: 12, value: (a) => STATUS_LABELS[a.account_status]?.[lang] ?? String(a.account_status) },
        { header: h[4]!, width: 8, value: (a) => a.currency },
        { header: h[5]!, width: 20, value: (a) => a.timezone_name },
        { header: h[6]!, width: 14, value: (a) => a.amount_spent },
        { header: h[7]!, width: 14, value: (a) => a.balance },
        { header: h[8]!, width: 14, value: (a) => a.spend_cap },
        { header: h[9]!, width: 20, value: (a) => a.business_name },
        { header: h[10]!, width: 8, value: (a) => a.platform },
        { header: h[11]!, width: 8, value: (a) => (a.hosted ? (zh ? '是' : 'Yes') : '') },
        { header: h[12]!, width: 24, value: (a) => a.personal_accounts.map((p) => p.name).join(', ') },
        { header: h[13]!, width: 24, value: (a) => a.users.map((u) => u.name).join(', ') },
        { header: h[14]!, width: 24, value: (a) => a.remark },
        { header: h[15]!, width: 20, value: (a) => when(a.last_synced_at) },
      ], (page) => accounts.exportRows(req.ctx(), req.body, page));
    });

    app.post('/ad-accounts/assign_users', { schema: { tags, body: assignUsersBodySchema, response: { 200: envelope(updatedSchema) } }, config: { paths: ACCOUNTS } }, async (req) =>
      ok(await accounts.assignUsers(req.ctx(), req.body)),
    );
    app.post('/ad-accounts/set_platform', { schema: { tags, body: setAdAccountPlatformBodySchema, response: { 200: envelope(updatedSchema) } }, config: { paths: ACCOUNTS } }, async (req) =>
      ok(await accounts.setPlatform(req.ctx(), req.body)),
    );
    app.post('/ad-accounts/set_hosted', { schema: { tags, body: setAdAccountHostedBodySchema, response: { 200: envelope(updatedSchema) } }, config: { paths: HOSTING } }, async (req) =>
      ok(await accounts.setHosted(req.ctx(), req.body)),
    );
    app.post('/ad-accounts/edit', { schema: { tags, body: editAdAccountBodySchema, response: { 200: envelope(adAccountSchema) } }, config: { paths: ACCOUNTS } }, async (req) =>
      ok(await accounts.edit(req.ctx(), req.body)),
    );
  };
}
