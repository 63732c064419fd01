import { endpoints, type SysUser } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import { pickColumns, sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { UserService } from './users.service.ts';

const api = endpoints.sysUsers;

const exportHeaders = {
  zh: ['ID', '账号', '姓名', '部门', '角色', '身份', '负责人', '平台', '状态', '最近登录', '创建时间', '备注'],
  en: ['ID', 'Account', 'Name', 'Department', 'Roles', 'Level', 'Leader', 'Platform', 'Status', 'Last login', 'Created', 'Remark'],
};

/** The sys-users module of SPEC.md §7 / API.md "System management". */
export function userRoutes(users: UserService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.list, async (req) => users.list(req.actor!, req.body));

    endpoint(app, api.export, async (req, reply) => {
      const h = exportHeaders[req.lang];
      const zh = req.lang === 'zh';
      const level = (u: SysUser) => (u.is_admin === 9 ? (zh ? '超级管理员' : 'Super admin') : u.is_admin === 1 ? (zh ? '管理员' : 'Manager') : zh ? '员工' : 'Staff');
      const when = (s: string | null) => (s ? s.replace('T', ' ').slice(0, 19) : '');
      const columns: XlsxColumn<SysUser>[] = [
        { key: 'account', header: h[0]!, width: 8, value: (u) => u.id },
        { key: 'account', header: h[1]!, value: (u) => u.account },
        { key: 'name', header: h[2]!, value: (u) => u.name },
        { key: 'department', header: h[3]!, value: (u) => u.department_name ?? '' },
        { key: 'roles', header: h[4]!, width: 24, value: (u) => u.roles.map((r) => r.name).join(', ') },
        { key: 'level', header: h[5]!, value: level },
        { key: 'leader', header: h[6]!, width: 8, value: (u) => (u.is_leader ? (zh ? '是' : 'Yes') : '') },
        { key: 'platform', header: h[7]!, width: 8, value: (u) => u.platform },
        { key: 'status', header: h[8]!, width: 8, value: (u) => (u.status === 'enabled' ? (zh ? '启用' : 'Enabled') : zh ? '停用' : 'Disabled') },
        { key: 'login_at', header: h[9]!, width: 20, value: (u) => when(u.login_at) },
        { key: 'created_at', header: h[10]!, width: 20, value: (u) => when(u.created_at) },
        { key: 'remark', header: h[11]!, width: 30, value: (u) => u.remark },
      ];
      return sendXlsx<SysUser>(reply, zh ? '账号列表.xlsx' : 'accounts.xlsx', zh ? '账号' : 'Accounts', pickColumns(columns, req.body.columns), (page) => users.exportRows(req.actor!, req.body, page));
    });

    endpoint(app, api.create_account, async (req) => users.create(req.ctx(), req.body));
    endpoint(app, api.edit_account, async (req) => users.edit(req.ctx(), req.body));
    endpoint(app, api.delete_user, async (req) => {
      await users.remove(req.ctx(), req.body.id);
      return null;
    });
    // Anyone may reset their own password; the service checks /sys/accounts for anyone else's.
    endpoint(app, api.reset_passwd, async (req) => users.resetPassword(req.ctx(), req.body.currentUserId));
    endpoint(app, api.simple_list, async (req) => users.simpleList(req.actor!, req.body ?? undefined));
    endpoint(app, api.batch_save_user_role, async (req) => users.batchSaveUserRole(req.ctx(), req.body));
  };
}
