import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

interface PageShellProps {
  title: ReactNode;
  /** Page-level actions on the right of the title (create, export…). */
  extra?: ReactNode;
  children: ReactNode;
}

/** The frame of a screen: a header with the page title and its actions, then the content. */
export function PageShell({ title, extra, children }: PageShellProps) {
  return (
    <Flex vertical gap={16} data-testid="page-shell">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra ? (
          <Flex gap={8} wrap align="center">
            {extra}
          </Flex>
        ) : null}
      </Flex>
      {children}
    </Flex>
  );
}
