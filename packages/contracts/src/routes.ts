/**
 * The one route table of SPEC.md §2. It drives the web router, the side menu, the guard,
 * the role editor's path tree, and the server's permission sets.
 */
export interface RouteEntry {
  path: string;
  /** Chinese title (SPEC.md gives titles in Chinese). */
  title: string;
  title_en: string;
  /** Global sort order; increases in tree pre-order so a flat sort keeps the tree order. */
  sort: number;
  /** Hidden routes are reachable but never listed in the menu. */
  hidden?: boolean;
  /** The menu entry highlighted while a hidden route is shown. */
  activeMenu?: string;
  children?: RouteEntry[];
}

type Def = [path: string, title: string, titleEn: string, opts?: { hidden?: boolean; activeMenu?: string }, children?: Def[]];

const adminDefs: Def = ['/admin', 'superadmin', 'Super admin', undefined, [
  ['/admin/index', '首页', 'Home'],
  ['/admin/order', '订单管理', 'Orders', undefined, [
    ['/admin/order/list', '订单列表', 'Order list'],
    ['/admin/order/daily', '订单分析', 'Order analysis'],
  ]],
  ['/admin/advertising', '广告管理', 'Advertising', undefined, [
    ['/admin/advertising/campaign', '广告系列', 'Campaigns'],
    ['/admin/advertising/group', '广告组', 'Ad sets'],
    ['/admin/advertising/list', '广告', 'Ads'],
    ['/admin/advertising/details', '系列详情', 'Campaign details'],
  ]],
  ['/admin/sys', '系统管理', 'System', undefined, [
    ['/admin/sys/cron', '定时任务', 'Scheduled tasks'],
  ]],
]];

const regularDefs: Def[] = [
  ['/index', '首页', 'Home'],
  ['/advertising', '广告管理', 'Advertising', undefined, [
    ['/advertising/post', '帖子管理', 'Posts'],
    ['/advertising/publish', '短剧发布', 'Drama publish'],
    ['/advertising/publish-ec', '电商发布', 'E-commerce publish'],
    ['/advertising/start', '启动管理', 'Start management'],
    ['/advertising/video', '短剧素材', 'Drama materials'],
    ['/advertising/upload-ec', '电商素材', 'E-commerce materials'],
    ['/advertising/user', '广告数据', 'Ad data'],
    ['/advertising/account', '广告账户', 'Ad accounts', { hidden: true, activeMenu: '/advertising/user' }],
    ['/advertising/campaign', '广告系列', 'Campaigns', { hidden: true, activeMenu: '/advertising/user' }],
    ['/advertising/group', '广告组', 'Ad sets', { hidden: true, activeMenu: '/advertising/user' }],
    ['/advertising/copy-log', '系统日志', 'Operation logs'],
    ['/advertising/close-log', '关闭日志', 'Close logs', { hidden: true, activeMenu: '/advertising/copy-log' }],
    ['/advertising/remove-log', '删除日志', 'Delete logs', { hidden: true, activeMenu: '/advertising/copy-log' }],
  ]],
  ['/material', '素材管理', 'Materials', undefined, [
    ['/material/upload', '上传素材', 'Upload materials'],
  ]],
  ['/analyse', '数据分析', 'Analysis', undefined, [
    ['/analyse/effect', '剧集成效', 'Drama results'],
    ['/analyse/material', '素材分析', 'Material analysis'],
    ['/analyse/performance', '素材绩效', 'Editor performance'],
    ['/analyse/performance-month', '素材绩效-月', 'Editor performance (month)', { hidden: true, activeMenu: '/analyse/performance' }],
    ['/analyse/evaluate', '剧集测评', 'Drama evaluation'],
    ['/analyse/scheme-user', '方案分析', 'Scheme analysis'],
    ['/analyse/scheme-list', '方案列表', 'Scheme list', { hidden: true, activeMenu: '/analyse/scheme-user' }],
    ['/analyse/landing', '落地页分析', 'Landing pages'],
  ]],
  ['/auth', '授权管理', 'Authorization', undefined, [
    ['/auth/pixel', '像素管理', 'Pixels'],
    ['/auth/homepage', '主页关联', 'Pages'],
    ['/auth/site', '站点关联', 'Sites'],
    ['/auth/account', '广告账户', 'Ad accounts'],
    ['/auth/personage', '个号管理', 'Personal accounts'],
  ]],
  ['/sys', '系统管理', 'System', undefined, [
    ['/sys/accounts', '账号管理', 'Accounts'],
    ['/sys/department', '部门管理', 'Departments'],
    ['/sys/role', '角色管理', 'Roles'],
  ]],
  ['/operation', '托管管理', 'Hosting', undefined, [
    ['/operation/auth', '个号授权', 'Account authorization'],
    ['/operation/account', '广告托管', 'Hosted ad accounts'],
  ]],
];

function build(defs: Def[], counter: { n: number }): RouteEntry[] {
  return defs.map(([path, title, title_en, opts, children]) => {
    const entry: RouteEntry = { path, title, title_en, sort: ++counter.n, ...opts };
    if (children) entry.children = build(children, counter);
    return entry;
  });
}

const counter = { n: 0 };
/** The admin root (/admin) with its children; only super admins (is_admin 9) reach it. */
export const adminRoute: RouteEntry = build([adminDefs], counter)[0]!;
/** Every top-level route outside /admin. */
export const regularRoutes: RouteEntry[] = build(regularDefs, counter);
/** The whole table, as children of the main layout '/'. */
export const routeTable: RouteEntry[] = [adminRoute, ...regularRoutes];

/** Depth-first list of every entry. */
export function flattenRoutes(entries: RouteEntry[] = routeTable): RouteEntry[] {
  const out: RouteEntry[] = [];
  const walk = (list: RouteEntry[]) => {
    for (const e of list) {
      out.push(e);
      if (e.children) walk(e.children);
    }
  };
  walk(entries);
  return out;
}

export const allRoutes: RouteEntry[] = flattenRoutes();
export const routeByPath: ReadonlyMap<string, RouteEntry> = new Map(allRoutes.map((r) => [r.path, r]));

/** Routes that render a screen (leaves of the tree). */
export const isScreenRoute = (r: RouteEntry): boolean => !r.children?.length;

export const ADMIN_PATHS: readonly string[] = allRoutes
  .filter((r) => r.path.startsWith('/admin/'))
  .sort((a, b) => a.sort - b.sort)
  .map((r) => r.path);

export const REGULAR_PATHS: readonly string[] = allRoutes
  .filter((r) => r.path !== '/admin' && !r.path.startsWith('/admin/'))
  .sort((a, b) => a.sort - b.sort)
  .map((r) => r.path);

/** Paths a role may grant: every regular path. */
export const ASSIGNABLE_PATHS: ReadonlySet<string> = new Set(REGULAR_PATHS);

/** The ancestors of a path in the route table, nearest last ('/sys/role' → ['/sys']). */
export function ancestorsOf(path: string): string[] {
  const parents: string[] = [];
  const find = (list: RouteEntry[], trail: string[]): boolean => {
    for (const e of list) {
      if (e.path === path) {
        parents.push(...trail);
        return true;
      }
      if (e.children && find(e.children, [...trail, e.path])) return true;
    }
    return false;
  };
  find(routeTable, []);
  return parents;
}
