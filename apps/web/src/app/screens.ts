import type { ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

const notAvailable: Loader = () => import('@/components/not-available-page');

/**
 * The screen behind each route path, loaded on demand (one chunk per screen). Paths of screens
 * that later work will build open the "not available yet" page, never fake data.
 */
export const screens: Record<string, Loader> = {
  '/index': () => import('@/features/home/pages/index-page'),
  '/sys/accounts': () => import('@/features/users/pages/accounts-page'),
  '/sys/department': () => import('@/features/departments/pages/department-page'),
  '/sys/role': () => import('@/features/roles/pages/role-page'),
  '/auth/personage': () => import('@/features/personal-accounts/pages/personal-accounts-page'),
  '/operation/auth': () => import('@/features/personal-accounts/pages/operation-auth-page'),
  '/auth/account': () => import('@/features/ad-accounts/pages/ad-accounts-page'),
  '/auth/homepage': () => import('@/features/pages/pages/pages-page'),
  '/auth/pixel': () => import('@/features/pixels/pages/pixels-page'),
  '/auth/site': () => import('@/features/sites/pages/sites-page'),
  '/operation/account': () => import('@/features/hosting/pages/hosting-page'),
  '/material/upload': () => import('@/features/materials/pages/material-upload-page'),
  '/advertising/publish': () => import('@/features/publish/pages/publish-page'),
  '/advertising/publish-ec': () => import('@/features/publish/pages/publish-ec-page'),
  '/advertising/start': () => import('@/features/start/pages/start-page'),
  '/advertising/post': () => import('@/features/posts/pages/post-page'),
  '/advertising/video': () => import('@/features/materials/pages/drama-materials-page'),
  '/advertising/upload-ec': () => import('@/features/materials/pages/ec-materials-page'),
  '/advertising/user': () => import('@/features/ad-data/pages/optimizer-report-page'),
  '/advertising/account': () => import('@/features/ad-data/pages/account-report-page'),
  '/advertising/campaign': () => import('@/features/ad-data/pages/campaign-report-page'),
  '/advertising/group': () => import('@/features/ad-data/pages/adset-report-page'),
  '/advertising/copy-log': () => import('@/features/ad-data/pages/copy-log-page'),
  '/advertising/close-log': () => import('@/features/ad-data/pages/close-log-page'),
  '/advertising/remove-log': () => import('@/features/ad-data/pages/remove-log-page'),
  '/admin/index': () => import('@/features/home/pages/admin-index-page'),
  '/admin/order/list': () => import('@/features/orders/pages/order-list-page'),
  '/admin/order/daily': () => import('@/features/orders/pages/order-daily-page'),
  '/admin/advertising/campaign': () => import('@/features/ad-data/pages/admin-campaign-page'),
  '/admin/advertising/group': () => import('@/features/ad-data/pages/admin-adset-page'),
  '/admin/advertising/list': () => import('@/features/ad-data/pages/admin-ad-page'),
  '/admin/advertising/details': () => import('@/features/ad-data/pages/campaign-details-page'),
  '/admin/sys/cron': () => import('@/features/cron/pages/cron-page'),
};

export function screenFor(path: string): Loader {
  return screens[path] ?? notAvailable;
}
