import { DeleteOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Divider, Flex, Input, Popover, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from './list-table';
import type { ColumnPrefsState } from './use-column-prefs';

/** The chooser's name of a column: its label, else its title when that is text. */
const nameOf = <T,>(c: ListColumn<T>): ReactNode => c.label ?? (typeof c.title === 'function' ? c.key : (c.title as ReactNode));

interface Props<T> {
  columns: readonly ListColumn<T>[];
  prefs: ColumnPrefsState;
}

/**
 * 列设置: tick the columns to show, restore the defaults, and save the current choice as a named
 * set to apply later (stored per user on the server, useColumnPrefs).
 */
export function ColumnChooser<T>({ columns, prefs }: Props<T>) {
  const { t: tc } = useTranslation();
  const [name, setName] = useState('');
  const hiddenSet = new Set(prefs.hidden);
  const keys = columns.map((c) => c.key);
  const shown = columns.filter((c) => c.locked || !hiddenSet.has(c.key)).map((c) => c.key);
  const trimmed = name.trim();
  const taken = prefs.sets.some((s) => s.name === trimmed);

  const content = (
    <Flex vertical gap={6} style={{ minWidth: 220, maxHeight: 420, overflow: 'auto' }} data-testid="column-chooser">
      {columns.map((c) => (
        <Checkbox
          key={c.key}
          checked={c.locked || !hiddenSet.has(c.key)}
          disabled={c.locked}
          onChange={(e) => prefs.setHidden(e.target.checked ? prefs.hidden.filter((k) => k !== c.key) : [...prefs.hidden, c.key])}
        >
          {nameOf(c)}
        </Checkbox>
      ))}
      <Button size="small" type="link" onClick={prefs.reset} style={{ alignSelf: 'flex-start', padding: 0 }}>
        {tc('columnSets.reset')}
      </Button>
      <Divider style={{ margin: '4px 0' }} />
      <Typography.Text type="secondary">{tc('columnSets.saved')}</Typography.Text>
      {prefs.sets.length === 0 && <Typography.Text type="secondary">{tc('columnSets.none')}</Typography.Text>}
      {prefs.sets.map((s) => (
        <Flex key={s.name} align="center" justify="space-between" gap={4}>
          <Button size="small" type="link" style={{ padding: 0 }} aria-label={tc('columnSets.apply', { name: s.name })} onClick={() => prefs.applySet(s, keys)}>
            {s.name}
          </Button>
          <Button size="small" type="text" icon={<DeleteOutlined />} aria-label={tc('columnSets.remove', { name: s.name })} onClick={() => prefs.removeSet(s.name)} />
        </Flex>
      ))}
      <Space.Compact style={{ width: '100%' }}>
        <Input size="small" value={name} maxLength={40} placeholder={tc('columnSets.namePlaceholder')} aria-label={tc('columnSets.saveAs')} onChange={(e) => setName(e.target.value)} />
        <Button
          size="small"
          disabled={!trimmed}
          onClick={() => {
            prefs.saveSet(trimmed, shown);
            setName('');
          }}
        >
          {tc('columnSets.save')}
        </Button>
      </Space.Compact>
      {taken && <Typography.Text type="warning">{tc('columnSets.nameTaken')}</Typography.Text>}
    </Flex>
  );
  return (
    <Popover trigger="click" placement="bottomRight" content={content} title={tc('table.columns')}>
      <Button icon={<SettingOutlined />}>{tc('table.columns')}</Button>
    </Popover>
  );
}
