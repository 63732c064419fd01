import { IS_ADMIN_MANAGER, REGULAR_PATHS } from '@ads/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import { useEffect, type ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { registerFeedback } from '@/lib/feedback';
import { themeConfig } from '@/lib/theme';
import { useSession, type SessionUser } from '@/stores/session-store';
import { useSettings } from '@/stores/settings-store';

/** The logged-in manager every screen test runs as unless told otherwise. */
export const manager: SessionUser = {
  id: 1,
  account: 'manager',
  name: 'Manager',
  remark: '',
  is_admin: IS_ADMIN_MANAGER,
  is_leader: 0,
  platform: 'dj',
  department_id: null,
  department_name: null,
  paths: [...REGULAR_PATHS],
  login_at: null,
};

function FeedbackBridge() {
  const { message, notification } = AntApp.useApp();
  useEffect(() => registerFeedback({ message, notification }), [message, notification]);
  return null;
}

/**
 * Renders one screen as the app would (en locale, antd App, a fresh query cache) at `url`,
 * signed in as `user`. Returns the memory router, to read the URL the screen wrote.
 */
export function renderScreen(ui: ReactElement, { url = '/', user = manager }: { url?: string; user?: SessionUser } = {}) {
  useSettings.setState({ locale: 'en', isDark: false });
  useSession.setState({ token: 'test-token', userInfo: user, fresh: true });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } } });
  const path = url.split('?')[0]!;
  const router = createMemoryRouter([{ path, element: ui }], { initialEntries: [url] });
  const base = themeConfig(false);
  // No animations (dialogs open and close at once) and no runtime CSS: happy-dom's
  // getComputedStyle slows down with every injected style sheet, and tests assert no looks.
  const themed = { ...base, zeroRuntime: true, token: { ...base.token, motion: false } };
  const result = render(
    <ConfigProvider theme={themed} locale={enUS}>
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>,
  );
  return { ...result, router, queryClient, user: userEvent.setup({ delay: null }) };
}
