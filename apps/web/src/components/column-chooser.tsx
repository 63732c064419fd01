import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Divider, Flex, Popover } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ChoosableColumn {
  key: string;
  title: ReactNode;
  /** Always shown (the name, the actions). */
  locked?: boolean;
}

interface Props {
  columns: readonly ChoosableColumn[];
  hidden: readonly string[];
  onChange: (hidden: string[]) => void;
  onReset: () => void;
}

/** 列设置: tick the columns to show; the table remembers the choice (useColumnPrefs). */
export function ColumnChooser({ columns, hidden, onChange, onReset }: Props) {
  const { t: tc } = useTranslation();
  const hiddenSet = new Set(hidden);
  const content = (
    <Flex vertical gap={6} style={{ minWidth: 180, maxHeight: 360, overflow: 'auto' }} data-testid="column-chooser">
      {columns.map((c) => (
        <Checkbox
          key={c.key}
          checked={!hiddenSet.has(c.key)}
          disabled={c.locked}
          onChange={(e) => onChange(e.target.checked ? hidden.filter((k) => k !== c.key) : [...hidden, c.key])}
        >
          {c.title}
        </Checkbox>
      ))}
      <Divider style={{ margin: '4px 0' }} />
      <Button size="small" type="link" onClick={onReset} style={{ alignSelf: 'flex-start', padding: 0 }}>
        {tc('actions.reset')}
      </Button>
    </Flex>
  );
  return (
    <Popover trigger="click" placement="bottomRight" content={content} title={tc('table.columns')}>
      <Button icon={<SettingOutlined />}>{tc('table.columns')}</Button>
    </Popover>
  );
}
