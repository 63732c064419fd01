import type { DepartmentNode } from '@ads/contracts';
import { TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo } from 'react';

interface DepartmentOption {
  value: number;
  title: string;
  disabled?: boolean;
  children?: DepartmentOption[];
}

/** Department tree as TreeSelect data; `exclude` drops subtrees, `isSelectable` disables nodes. */
export function toDepartmentOptions(
  tree: readonly DepartmentNode[],
  opts: { exclude?: ReadonlySet<number>; isSelectable?: (id: number) => boolean } = {},
): DepartmentOption[] {
  return tree
    .filter((n) => !opts.exclude?.has(n.id))
    .map((n) => {
      const children = toDepartmentOptions(n.children, opts);
      return {
        value: n.id,
        title: n.name,
        ...(opts.isSelectable && !opts.isSelectable(n.id) && { disabled: true }),
        ...(children.length && { children }),
      };
    });
}

type Props = Omit<TreeSelectProps<number>, 'treeData'> & {
  tree: readonly DepartmentNode[];
  exclude?: ReadonlySet<number>;
  isSelectable?: (id: number) => boolean;
};

/** Picks one department from the tree, searchable by name, everything expanded. */
export function DepartmentTreeSelect({ tree, exclude, isSelectable, ...props }: Props) {
  const treeData = useMemo(() => toDepartmentOptions(tree, { exclude, isSelectable }), [tree, exclude, isSelectable]);
  return (
    <TreeSelect<number>
      showSearch={{ treeNodeFilterProp: 'title' }}
      allowClear
      treeDefaultExpandAll
      popupMatchSelectWidth={false}
      treeData={treeData}
      {...props}
    />
  );
}
