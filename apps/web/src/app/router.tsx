import { allRoutes, isScreenRoute } from '@ads/contracts/core';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import { PageSpinner } from '@/components/page-spinner';
import { useSession } from '@/stores/session-store';
import { guardRedirect } from './guard';
import { screenFor } from './screens';

const LoginPage = lazy(() => import('@/features/auth/pages/login-page'));
const MainLayout = lazy(() => import('./layout/main-layout'));
const NotFoundPage = lazy(() => import('@/components/not-found-page'));

/** Applies the guard of SPEC.md §2 to every location; redirects replace the history entry. */
export function RootGuard() {
  const { pathname } = useLocation();
  const token = useSession((s) => s.token);
  const userInfo = useSession((s) => s.userInfo);
  const fresh = useSession((s) => s.fresh);
  // With a token but nothing stored about the user yet, wait for get_user_info before deciding.
  if (token && !userInfo && !fresh) return <PageSpinner fullscreen />;
  const target = guardRedirect(pathname, token, userInfo?.paths ?? []);
  if (target) return <Navigate to={target} replace />;
  return <Outlet />;
}

/** One lazily loaded component per screen route, created once. */
const screenComponents = new Map<string, LazyExoticComponent<ComponentType>>(
  allRoutes.filter(isScreenRoute).map((r) => [r.path, lazy(screenFor(r.path))]),
);

export const layoutChildren: RouteObject[] = allRoutes.map((r) => {
  const Screen = screenComponents.get(r.path);
  // Groups never render: the guard sends them on to their first permitted screen.
  return { path: r.path.slice(1), element: Screen ? <Screen /> : <Navigate to="/" replace /> };
});

export const routes: RouteObject[] = [
  {
    element: <RootGuard />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/404', element: <NotFoundPage /> },
      { path: '/', element: <MainLayout />, children: layoutChildren },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);

export { Outlet };
