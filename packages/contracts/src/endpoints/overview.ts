import { adminOverviewSchema, dashboardBodySchema, dashboardSchema, homeOverviewSchema } from '../overview.ts';
import { define } from './define.ts';

/** The landing pages: 首页 (/index) for staff, 首页 (/admin/index) for the super admin. */
export const overview = {
  home: define({ path: '/overview/home', answer: homeOverviewSchema, allow: ['/index'], tag: 'overview' }),
  admin: define({ path: '/overview/admin', answer: adminOverviewSchema, allow: ['/admin/index'], tag: 'overview' }),
  dashboard: define({ path: '/overview/dashboard', body: dashboardBodySchema, answer: dashboardSchema, allow: ['/index', '/admin/index'], tag: 'overview', summary: 'Today and yesterday, the 30-day trend, top dramas and campaigns, and alerts: the caller\'s data scope on /index, the company on /admin/index' }),
};
