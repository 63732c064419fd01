import { Button, Flex } from 'antd';
import { Component, type ReactNode } from 'react';
import i18n from '@/lib/i18n';

/** Keeps one broken screen from blanking the whole app; the shell stays usable. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error) {
    console.error(error);
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      // Plain markup: this sits in the eager bundle, and antd's Result would weigh on every page.
      <Flex vertical align="center" gap={12} style={{ padding: '64px 16px', textAlign: 'center' }} role="alert">
        <h2 style={{ margin: 0, fontSize: 20 }}>{i18n.t('errorBoundary.title')}</h2>
        <p style={{ margin: 0, maxWidth: 480, opacity: 0.75 }}>{i18n.t('errorBoundary.body')}</p>
        <Button onClick={() => window.location.reload()}>{i18n.t('errorBoundary.reload')}</Button>
      </Flex>
    );
  }
}
