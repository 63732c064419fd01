import { Alert, Button, Flex } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The bar above a table while rows are selected: how many, the bulk actions, and "clear". */
export function SelectionBar({ count, onClear, children }: { count: number; onClear: () => void; children: ReactNode }) {
  const { t: tc } = useTranslation();
  if (count === 0) return null;
  return (
    <Alert
      type="info"
      banner
      showIcon={false}
      data-testid="selection-bar"
      title={
        <Flex align="center" gap={8} wrap>
          <span>{tc('table.selected', { count })}</span>
          {children}
          <Button size="small" type="link" onClick={onClear}>
            {tc('table.clearSelection')}
          </Button>
        </Flex>
      }
    />
  );
}
