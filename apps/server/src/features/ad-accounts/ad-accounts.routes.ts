import { endpoints, type AdAccount } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import { pickColumns, sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { AdAccountService } from './ad-accounts.service.ts';

const api = endpoints.adAccounts;

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
export function adAccountRoutes(accounts: AdAccountService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.list, async (req) => accounts.list(req.ctx(), req.body));

    endpoint(app, api.export, async (req, reply) => {
      const lang = req.lang;
      const h = exportHeaders[lang];
      const zh = lang === 'zh';
      const when = (s: string | null) => (s ? s.replace('T', ' ').slice(0, 19) : '');
      const columns: XlsxColumn<AdAccount>[] = [
        { key: 'name', header: h[0]!, width: 8, value: (a) => a.id },
        { key: 'name', header: h[1]!, width: 22, value: (a) => a.platform_id },
        { key: 'name', header: h[2]!, width: 28, value: (a) => a.name },
        { key: 'account_status', header: h[3]!, width: 12, value: (a) => STATUS_LABELS[a.account_status]?.[lang] ?? String(a.account_status) },
        { key: 'currency', header: h[4]!, width: 8, value: (a) => a.currency },
        { key: 'timezone', header: h[5]!, width: 20, value: (a) => a.timezone_name },
        { key: 'amount_spent', header: h[6]!, width: 14, value: (a) => a.amount_spent },
        { key: 'balance', header: h[7]!, width: 14, value: (a) => a.balance },
        { key: 'spend_cap', header: h[8]!, width: 14, value: (a) => a.spend_cap },
        { key: 'business', header: h[9]!, width: 20, value: (a) => a.business_name },
        { key: 'platform', header: h[10]!, width: 8, value: (a) => a.platform },
        { key: 'hosted', header: h[11]!, width: 8, value: (a) => (a.hosted ? (zh ? '是' : 'Yes') : '') },
        { key: 'personal_accounts', header: h[12]!, width: 24, value: (a) => a.personal_accounts.map((p) => p.name).join(', ') },
        { key: 'users', header: h[13]!, width: 24, value: (a) => a.users.map((u) => u.name).join(', ') },
        { key: 'remark', header: h[14]!, width: 24, value: (a) => a.remark },
        { key: 'last_synced_at', header: h[15]!, width: 20, value: (a) => when(a.last_synced_at) },
      ];
      return sendXlsx<AdAccount>(reply, zh ? '广告账户.xlsx' : 'ad-accounts.xlsx', zh ? '广告账户' : 'Ad accounts', pickColumns(columns, req.body.columns), (page) => accounts.exportRows(req.ctx(), req.body, page));
    });

    endpoint(app, api.assign_users, async (req) => accounts.assignUsers(req.ctx(), req.body));
    endpoint(app, api.set_platform, async (req) => accounts.setPlatform(req.ctx(), req.body));
    endpoint(app, api.set_hosted, async (req) => accounts.setHosted(req.ctx(), req.body));
    endpoint(app, api.edit, async (req) => accounts.edit(req.ctx(), req.body));
  };
}
