import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { Suspense, useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary';
import { PageSpinner } from '@/components/page-spinner';
import { registerFeedback } from '@/lib/feedback';
import { themeConfig } from '@/lib/theme';
import { useSettings } from '@/stores/settings-store';
import { createRouter } from './router';

/** Hands the themed message and notification instances to code outside React. */
function FeedbackBridge() {
  const { message, notification } = AntApp.useApp();
  useEffect(() => registerFeedback({ message, notification }), [message, notification]);
  return null;
}

const router = createRouter();

export function App() {
  const isDark = useSettings((s) => s.isDark);
  const locale = useSettings((s) => s.locale);
  return (
    <ConfigProvider theme={themeConfig(isDark)} locale={locale === 'en' ? enUS : zhCN}>
      <AntApp>
        <FeedbackBridge />
        <ErrorBoundary>
          <Suspense fallback={<PageSpinner fullscreen />}>
            <RouterProvider router={router} />
          </Suspense>
        </ErrorBoundary>
      </AntApp>
    </ConfigProvider>
  );
}
