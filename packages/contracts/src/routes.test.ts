import { describe, expect, it } from 'vitest';
import { derivePaths, groupWithPages, withAncestors } from './paths.ts';
import { ADMIN_PATHS, allRoutes, ancestorsOf, REGULAR_PATHS, routeByPath, routeTable } from './routes.ts';

describe('route table (SPEC.md §2)', () => {
  it('has every path once', () => {
    const paths = allRoutes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('holds the routes and titles SPEC.md names', () => {
    const expected: Record<string, string> = {
      '/admin': 'superadmin',
      '/admin/index': '首页',
      '/admin/order/list': '订单列表',
      '/admin/order/daily': '订单分析',
      '/admin/advertising/details': '系列详情',
      '/admin/sys/cron': '定时任务',
      '/index': '首页',
      '/advertising/post': '帖子管理',
      '/advertising/publish-ec': '电商发布',
      '/advertising/user': '广告数据',
      '/advertising/remove-log': '删除日志',
      '/material/upload': '上传素材',
      '/analyse/performance-month': '素材绩效-月',
      '/analyse/landing': '落地页分析',
      '/auth/personage': '个号管理',
      '/sys/accounts': '账号管理',
      '/sys/department': '部门管理',
      '/sys/role': '角色管理',
      '/operation/auth': '个号授权',
      '/operation/account': '广告托管',
    };
    for (const [path, title] of Object.entries(expected)) expect(routeByPath.get(path)?.title, path).toBe(title);
    expect(allRoutes).toHaveLength(51);
  });

  it('marks hidden routes with the entry they highlight', () => {
    const hidden = allRoutes.filter((r) => r.hidden).map((r) => [r.path, r.activeMenu]);
    expect(hidden).toEqual([
      ['/advertising/account', '/advertising/user'],
      ['/advertising/campaign', '/advertising/user'],
      ['/advertising/group', '/advertising/user'],
      ['/advertising/close-log', '/advertising/copy-log'],
      ['/advertising/remove-log', '/advertising/copy-log'],
      ['/analyse/performance-month', '/analyse/performance'],
      ['/analyse/scheme-list', '/analyse/scheme-user'],
    ]);
    for (const [, active] of hidden) expect(routeByPath.get(active!)?.hidden).toBeFalsy();
  });

  it('sorts so that a flat sort keeps the tree order', () => {
    const sorts = allRoutes.map((r) => r.sort);
    expect([...sorts].sort((a, b) => a - b)).toEqual(sorts);
    expect(routeTable[0]!.path).toBe('/admin');
  });

  it('splits paths into the admin area and the rest', () => {
    expect(ADMIN_PATHS[0]).toBe('/admin/index');
    expect(ADMIN_PATHS.every((p) => p.startsWith('/admin/'))).toBe(true);
    expect(REGULAR_PATHS[0]).toBe('/index');
    expect(REGULAR_PATHS.some((p) => p.startsWith('/admin'))).toBe(false);
    expect(ADMIN_PATHS.length + REGULAR_PATHS.length + 1).toBe(allRoutes.length);
  });

  it('knows the ancestors of a path', () => {
    expect(ancestorsOf('/admin/order/list')).toEqual(['/admin', '/admin/order']);
    expect(ancestorsOf('/sys/role')).toEqual(['/sys']);
    expect(ancestorsOf('/index')).toEqual([]);
    expect(ancestorsOf('/nope')).toEqual([]);
  });
});

describe('derivePaths (API.md "Session")', () => {
  it('gives a super admin every /admin path and a manager every other path', () => {
    expect(derivePaths(9, ['/index'])).toEqual(ADMIN_PATHS);
    expect(derivePaths(1)).toEqual(REGULAR_PATHS);
  });

  it('gives staff the union of role paths with their groups, in sort order', () => {
    expect(derivePaths(0, ['/sys/role', '/index', '/sys/role'])).toEqual(['/index', '/sys', '/sys/role']);
  });

  it('grants exactly the listed paths: a group path alone is the group entry, not its pages (SPEC.md §6)', () => {
    expect(derivePaths(0, ['/sys'])).toEqual(['/sys']);
    const paths = derivePaths(0, ['/advertising', '/advertising/user']);
    expect(paths).toEqual(['/advertising', '/advertising/user']);
    expect(paths).not.toContain('/advertising/post');
    // A page brings its group along even when the group is not stored.
    expect(derivePaths(0, ['/analyse/performance-month'])).toEqual(['/analyse', '/analyse/performance-month']);
  });

  it('drops unknown and admin paths', () => {
    expect(derivePaths(0, ['/admin/index', '/admin', '/hack', '/index'])).toEqual(['/index']);
  });
});

describe('what the role editor stores', () => {
  it('adds the ancestors of each checked page, once, in route-table order, dropping unknown paths', () => {
    expect(withAncestors(['/sys/role', '/index', '/auth/pixel', '/sys/accounts', '/nope'])).toEqual(['/index', '/auth', '/auth/pixel', '/sys', '/sys/accounts', '/sys/role']);
    expect(withAncestors([])).toEqual([]);
  });

  it('stores a whole group as the group and every page below it', () => {
    expect(groupWithPages('/sys')).toEqual(['/sys', '/sys/accounts', '/sys/department', '/sys/role']);
    expect(groupWithPages('/index')).toEqual(['/index']);
    expect(groupWithPages('/nope')).toEqual([]);
    // What it stores grants what it lists.
    expect(derivePaths(0, groupWithPages('/operation'))).toEqual(['/operation', '/operation/auth', '/operation/account']);
  });
});
