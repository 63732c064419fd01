import type { DepartmentNode } from '@ads/contracts';
import { Button, Flex, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult } from '@/components/list-kit';
import { canChangeDepartment, canCreateDepartmentUnder, isManager, type Viewer } from '@/lib/permissions';
import { subtreeTotals } from './department-tree-utils';
import { Highlight } from './highlight';

interface Row extends Omit<DepartmentNode, 'children'> {
  node: DepartmentNode;
  children?: Row[];
}

/** Tree-table rows; leaves get no `children` so no expand icon shows. */
function toRows(nodes: readonly DepartmentNode[]): Row[] {
  return nodes.map((node) => {
    const { children, ...rest } = node;
    return { ...rest, node, ...(children.length && { children: toRows(children) }) };
  });
}

export type DepartmentAction = 'addChild' | 'edit' | 'move' | 'leader' | 'delete';

interface Props {
  /** The tree as shown (already filtered by the search box). */
  nodes: readonly DepartmentNode[];
  /** The whole tree, for permission checks. */
  fullTree: readonly DepartmentNode[];
  keyword: string;
  viewer: Viewer;
  /** The tree query, for its loading and error states. */
  result: ListResult<unknown>;
  expandedKeys: number[];
  onExpandedKeysChange: (keys: number[]) => void;
  empty: EmptyConfig;
  onAction: (action: DepartmentAction, node: DepartmentNode) => void;
}

/** Departments as a tree table: name, leader, members, sort and the actions the viewer may use. */
export function DepartmentTreeTable({ nodes, fullTree, keyword, viewer, result, expandedKeys, onExpandedKeysChange, empty, onAction }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  // From the whole tree, so a search that hides some sub-departments does not change the totals.
  const totals = useMemo(() => subtreeTotals(fullTree), [fullTree]);

  const columns: ListColumn<Row>[] = [
    {
      key: 'name',
      title: t('departments.columns.name'),
      dataIndex: 'name',
      render: (name: string) => <Highlight text={name} keyword={keyword} />,
    },
    {
      key: 'leader',
      title: t('departments.columns.leader'),
      dataIndex: 'leader_name',
      width: 160,
      render: (name: string | null) =>
        name ? <Highlight text={name} keyword={keyword} /> : <Typography.Text type="secondary">{t('departments.noLeader')}</Typography.Text>,
    },
    {
      key: 'members',
      title: t('departments.columns.members'),
      dataIndex: 'member_count',
      width: 170,
      render: (count: number, row) => (
        <Flex gap={8} align="baseline">
          <span>{count}</span>
          {totals.get(row.id) !== count && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('departments.membersWithSub', { count: totals.get(row.id) })}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { key: 'sort', title: t('departments.columns.sort'), dataIndex: 'sort', width: 80 },
    {
      key: 'actions',
      title: tc('table.actions'),
      width: 330,
      render: (_, row) => {
        const canChange = canChangeDepartment(viewer, fullTree, row.id);
        const canAdd = canCreateDepartmentUnder(viewer, fullTree, row.id);
        if (!canChange && !canAdd) return <Typography.Text type="secondary">{tc('dash')}</Typography.Text>;
        const link = (action: DepartmentAction, label: string, danger = false) => (
          <Button key={action} type="link" size="small" danger={danger} onClick={() => onAction(action, row.node)}>
            {label}
          </Button>
        );
        return (
          <Flex wrap={false}>
            {canAdd && link('addChild', t('departments.addChild'))}
            {canChange && [
              link('edit', t('departments.edit')),
              link('move', t('departments.move')),
              // Appointing makes someone a leader: only managers grant leadership.
              isManager(viewer) && link('leader', t('departments.setLeader')),
              link('delete', tc('actions.delete'), true),
            ]}
          </Flex>
        );
      },
    },
  ];

  // The whole tree at once (no paging); the search box filters it on the page.
  const rows = toRows(nodes);
  return (
    <ListTable<Row, { list: Row[]; total: number }>
      result={{ ...result, data: result.data === undefined ? undefined : { list: rows, total: rows.length } }}
      rowKey="id"
      columns={columns}
      empty={empty}
      filtered={keyword.trim() !== ''}
      expandable={{ expandedRowKeys: expandedKeys, onExpandedRowsChange: (keys) => onExpandedKeysChange(keys as number[]), indentSize: 20 }}
    />
  );
}
