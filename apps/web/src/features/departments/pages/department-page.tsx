import { ApartmentOutlined, NodeCollapseOutlined, NodeExpandOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import type { DepartmentNode } from '@ads/contracts';
import { App, Button, Card, Flex, Input, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import { useDepartmentTree } from '@/lib/lookups/use-department-tree';
import { canCreateDepartmentUnder, isManager, useViewer } from '@/lib/permissions';
import { useDeleteDepartment } from '../api/use-delete-department';
import { DepartmentFormModal, type DepartmentFormTarget } from '../components/department-form-modal';
import { DepartmentTreeTable, type DepartmentAction } from '../components/department-tree-table';
import { countNodes, filterTree, parentIds, subtreeMembers } from '../components/department-tree-utils';

/** /sys/department 部门管理: the department tree with leaders and member counts. */
export default function DepartmentPage() {
  const { t } = useTranslation('sys');
  const { modal, message } = App.useApp();
  const title = useRouteTitle('/sys/department');
  const viewer = useViewer();
  const tree = useDepartmentTree();
  const deleteDepartment = useDeleteDepartment();
  const [keyword, setKeyword] = useState('');
  const [target, setTarget] = useState<DepartmentFormTarget | null>(null);
  const [expanded, setExpanded] = useState<number[] | null>(null);

  const fullTree = useMemo(() => tree.data ?? [], [tree.data]);
  const shown = useMemo(() => filterTree(fullTree, keyword), [fullTree, keyword]);
  const searching = keyword.trim() !== '';

  // Everything starts expanded; a search expands whatever it found.
  const expandedKeys = searching ? parentIds(shown) : (expanded ?? parentIds(fullTree));

  // Top level for managers; others create inside their own department.
  const rootParent = isManager(viewer) ? null : (viewer.department_id ?? null);
  const canCreate = canCreateDepartmentUnder(viewer, fullTree, rootParent);

  const handleDelete = (node: DepartmentNode) => {
    const children = node.children.length;
    confirmAction(modal, {
      title: t('departments.confirmDelete.title', { name: node.name }),
      content: (
        <Flex vertical gap={4}>
          <span>{t('departments.confirmDelete.body')}</span>
          {children > 0 && <Typography.Text type="warning">{t('departments.confirmDelete.hasChildren', { count: children })}</Typography.Text>}
          {node.member_count > 0 && <Typography.Text type="warning">{t('departments.confirmDelete.hasMembers', { count: node.member_count })}</Typography.Text>}
        </Flex>
      ),
      okText: t('departments.confirmDelete.ok'),
      danger: true,
      action: async () => {
        await deleteDepartment.mutateAsync(node.id);
        message.success(t('departments.deleted'));
      },
    });
  };

  const handleAction = (action: DepartmentAction, node: DepartmentNode) => {
    if (action === 'delete') handleDelete(node);
    else if (action === 'addChild') setTarget({ mode: 'create', parentId: node.id });
    else setTarget({ mode: action, node });
  };

  const createButton = (label: string) => (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ mode: 'create', parentId: rootParent })}>
      {label}
    </Button>
  );

  const empty = {
    text: (
      <>
        <div>{t('departments.empty.title')}</div>
        <Typography.Text type="secondary">{t('departments.empty.body')}</Typography.Text>
      </>
    ),
    image: <ApartmentOutlined style={{ fontSize: 48, opacity: 0.45 }} />,
    action: canCreate && createButton(t('departments.empty.action')),
    filteredText: t('departments.noMatch', { keyword: keyword.trim() }),
  };

  const totalMembers = fullTree.reduce((sum, n) => sum + subtreeMembers(n), 0);
  // A non-manager sees the part of the tree they manage; the departments above it are named, read-only.
  const above = fullTree[0]?.ancestors ?? [];

  return (
    <PageShell title={title} extra={canCreate && fullTree.length > 0 ? createButton(t('departments.create')) : null}>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ padding: 12 }}>
          <Flex gap={8} align="center" wrap>
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('departments.searchPlaceholder')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              style={{ width: 240 }}
              aria-label={t('departments.searchPlaceholder')}
            />
            <Button icon={<NodeExpandOutlined />} disabled={searching} onClick={() => setExpanded(parentIds(fullTree))}>
              {t('departments.expandAll')}
            </Button>
            <Button icon={<NodeCollapseOutlined />} disabled={searching} onClick={() => setExpanded([])}>
              {t('departments.collapseAll')}
            </Button>
          </Flex>
          {fullTree.length > 0 && (
            <Flex gap={16} align="center" wrap>
              {above.length > 0 && <Typography.Text type="secondary" data-testid="department-ancestors">{t('scopeRules.ancestors', { path: above.map((a) => a.name).join(' / ') })}</Typography.Text>}
              <Typography.Text type="secondary">{t('departments.summary', { departments: countNodes(fullTree), members: totalMembers })}</Typography.Text>
            </Flex>
          )}
        </Flex>
        <DepartmentTreeTable
          nodes={shown}
          fullTree={fullTree}
          keyword={keyword}
          viewer={viewer}
          result={tree}
          expandedKeys={expandedKeys}
          onExpandedKeysChange={(keys) => !searching && setExpanded(keys)}
          empty={empty}
          onAction={handleAction}
        />
      </Card>
      <DepartmentFormModal target={target} tree={fullTree} viewer={viewer} onClose={() => setTarget(null)} />
    </PageShell>
  );
}
