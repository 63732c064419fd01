import { ADMIN_PATHS, REGULAR_PATHS } from '@ads/contracts';
import { describe, expect, it } from 'vitest';
import { buildMenu, openMenuKeys, selectedMenuKey } from './menu';

describe('buildMenu', () => {
  it('lists the regular area in sort order for a manager, without hidden routes', () => {
    const menu = buildMenu(1, REGULAR_PATHS);
    expect(menu.map((m) => m.title)).toEqual(['首页', '广告管理', '素材管理', '数据分析', '授权管理', '系统管理', '托管管理']);
    const advertising = menu.find((m) => m.key === '/advertising')!;
    expect(advertising.children!.map((c) => c.key)).toEqual([
      '/advertising/post',
      '/advertising/publish',
      '/advertising/publish-ec',
      '/advertising/start',
      '/advertising/video',
      '/advertising/upload-ec',
      '/advertising/user',
      '/advertising/copy-log',
    ]);
    expect(JSON.stringify(menu)).not.toContain('/advertising/campaign');
    expect(JSON.stringify(menu)).not.toContain('/analyse/performance-month');
  });

  it('shows the children of the admin root to a super admin', () => {
    const menu = buildMenu(9, ADMIN_PATHS);
    expect(menu.map((m) => m.title)).toEqual(['首页', '订单管理', '广告管理', '系统管理']);
    expect(menu.map((m) => m.key)).toEqual(['/admin/index', '/admin/order', '/admin/advertising', '/admin/sys']);
  });

  it('shows staff only permitted entries, and drops groups with nothing permitted inside', () => {
    const menu = buildMenu(0, ['/sys', '/sys/role', '/auth']);
    expect(menu).toEqual([{ key: '/sys', title: '系统管理', title_en: 'System', children: [{ key: '/sys/role', title: '角色管理', title_en: 'Roles' }] }]);
  });

  it('lists nothing for paths the super admin does not have', () => {
    expect(buildMenu(9, [])).toEqual([]);
  });
});

describe('highlight and open groups', () => {
  it('highlights the activeMenu of a hidden route and opens its parent', () => {
    expect(selectedMenuKey('/advertising/campaign')).toBe('/advertising/user');
    expect(selectedMenuKey('/advertising/remove-log')).toBe('/advertising/copy-log');
    expect(selectedMenuKey('/analyse/scheme-list')).toBe('/analyse/scheme-user');
    expect(openMenuKeys('/advertising/campaign')).toEqual(['/advertising']);
  });

  it('highlights a visible route itself and opens its parents', () => {
    expect(selectedMenuKey('/sys/role')).toBe('/sys/role');
    expect(openMenuKeys('/sys/role')).toEqual(['/sys']);
    expect(openMenuKeys('/admin/order/list')).toEqual(['/admin/order']);
    expect(openMenuKeys('/index')).toEqual([]);
  });
});
