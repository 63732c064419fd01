import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { Layout } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary';
import { PageSpinner } from '@/components/page-spinner';
import { queryClient } from '@/lib/query-client';
import { HeaderBar } from './header-bar';
import { Sidebar } from './sidebar';
import { useAutoCollapse } from './use-auto-collapse';

/** How long the refresh spinner shows before the content is rebuilt. */
export const REFRESH_SPIN_MS = 300;
export const MIN_LAYOUT_WIDTH = 768;
export const CONTENT_PADDING = 20;

/**
 * The main layout of SPEC.md §2: sidebar, header, content area. Server data (react-query)
 * starts here: the login page needs none of it and does not load it.
 */
export default function MainLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <LayoutShell />
    </QueryClientProvider>
  );
}

function LayoutShell() {
  const [collapsed, setCollapsed] = useAutoCollapse();
  const [refreshKey, setRefreshKey] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const { pathname } = useLocation();
  const queryClient = useQueryClient();

  const handleRefresh = () => {
    setRefreshing(true);
    void queryClient.invalidateQueries();
  };

  // The spinner's time counts from its first frame: unmounting a heavy page (charts) can take
  // longer than the spin itself, and the spinner would then never be seen.
  useEffect(() => {
    if (!refreshing) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        setRefreshKey((k) => k + 1);
        setRefreshing(false);
      }, REFRESH_SPIN_MS);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [refreshing]);

  return (
    <Layout style={{ minHeight: '100vh', minWidth: MIN_LAYOUT_WIDTH }} data-testid="main-layout">
      <Sidebar collapsed={collapsed} />
      <Layout>
        <HeaderBar collapsed={collapsed} onToggle={() => setCollapsed(!collapsed)} onRefresh={handleRefresh} />
        <Layout.Content style={{ padding: CONTENT_PADDING }} data-testid="content">
          {refreshing ? (
            <PageSpinner />
          ) : (
            <ErrorBoundary key={`${pathname}:${refreshKey}`}>
              <Suspense fallback={<PageSpinner />}>
                <Outlet />
              </Suspense>
            </ErrorBoundary>
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
