import { groupWithPages, withAncestors } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { generatePassword, hashPassword, md5Hex } from '../lib/passwords.ts';

/**
 * DEMO=1: a small company to click through — departments, roles and staff with the shapes a real
 * team has (optimizers, editors, a leader per department). Runs once, on a database without
 * departments; returns the shared staff password to print, or null when nothing was added.
 */
export async function seedDemoCompany(db: Db, password = generatePassword()): Promise<{ password: string; accounts: string[] } | null> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(727002)`.execute(trx);
    const any = await trx.selectFrom('departments').select('id').limit(1).executeTakeFirst();
    if (any) return null;

    // A role grants exactly its paths (SPEC.md §6): a group is stored with all its pages, as the role editor does.
    const role = async (name: string, remark: string, entries: string[], assetScope: 'own' | 'company' = 'own') =>
      (await trx.insertInto('roles').values({ name, remark, paths: withAncestors(entries.flatMap(groupWithPages)), asset_scope: assetScope }).returning('id').executeTakeFirstOrThrow()).id;
    const optimizer = await role('投手', '发布与观察广告、看数据', ['/index', '/advertising', '/material', '/analyse']);
    const editor = await role('剪辑师', '上传素材、看素材绩效', ['/index', '/material', '/advertising/video', '/advertising/upload-ec', '/analyse/material', '/analyse/performance', '/analyse/performance-month']);
    // Authorization work looks after the whole company's tokens, pages, pixels and sites, not only their own.
    const ops = await role('授权运营', '个号、主页、像素、站点与托管（可查看全公司授权资产）', ['/index', '/auth', '/operation'], 'company');
    const hr = await role('人事', '账号与部门', ['/index', '/sys/accounts', '/sys/department']);

    const dept = async (name: string, parent: number | null, sort: number) =>
      (await trx.insertInto('departments').values({ name, parent_id: parent, sort }).returning('id').executeTakeFirstOrThrow()).id;
    const company = await dept('增长中心', null, 0);
    const drama1 = await dept('短剧投放一组', company, 1);
    const drama2 = await dept('短剧投放二组', company, 2);
    const ec = await dept('电商投放组', company, 3);
    const edit = await dept('剪辑组', company, 4);
    const admin = await dept('综合管理部', null, 1);

    const pwdHash = await hashPassword(md5Hex(password));
    const people: [string, string, number, number, 'dj' | 'ec', number[]][] = [
      ['zhangwei', '张伟', drama1, 1, 'dj', [optimizer]],
      ['lina', '李娜', drama1, 0, 'dj', [optimizer]],
      ['wangfang', '王芳', drama1, 0, 'dj', [optimizer]],
      ['liuyang', '刘洋', drama2, 1, 'dj', [optimizer]],
      ['chenjing', '陈静', drama2, 0, 'dj', [optimizer]],
      ['zhaolei', '赵磊', ec, 1, 'ec', [optimizer]],
      ['sunli', '孙丽', ec, 0, 'ec', [optimizer]],
      ['zhoujie', '周杰', edit, 1, 'dj', [editor]],
      ['wuxia', '吴霞', edit, 0, 'dj', [editor]],
      ['zhengkai', '郑凯', edit, 0, 'ec', [editor]],
      ['heyun', '何云', admin, 0, 'dj', [ops]],
      ['xumin', '徐敏', admin, 1, 'dj', [hr]],
    ];
    for (const [account, name, departmentId, isLeader, platform, roles] of people) {
      const user = await trx
        .insertInto('users')
        .values({ account, name, pwd_hash: pwdHash, department_id: departmentId, is_leader: isLeader, platform, remark: 'demo' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('user_roles').values(roles.map((role_id) => ({ user_id: user.id, role_id }))).execute();
      if (isLeader) await trx.updateTable('departments').set({ leader_id: user.id }).where('id', '=', departmentId).execute();
    }
    await trx.insertInto('audit_logs').values({ action: 'system.demo_seed', entity_type: 'department', after: JSON.stringify({ users: people.length }) }).execute();
    return { password, accounts: people.map((p) => p[0]) };
  });
}
