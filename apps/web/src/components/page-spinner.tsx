import { Flex, Spin } from 'antd';

/** The centred large spinner shown while a page loads or refreshes (SPEC.md §2). */
export function PageSpinner({ fullscreen = false }: { fullscreen?: boolean }) {
  return (
    <Flex align="center" justify="center" style={{ minHeight: fullscreen ? '100vh' : 320, width: '100%' }} data-testid="page-spinner">
      <Spin size="large" />
    </Flex>
  );
}
