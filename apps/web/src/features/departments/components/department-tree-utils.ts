import type { DepartmentNode } from '@ads/contracts';

/** Ids of nodes that have children (the only rows a tree table can expand). */
export function parentIds(tree: readonly DepartmentNode[]): number[] {
  return tree.flatMap((n) => (n.children.length ? [n.id, ...parentIds(n.children)] : []));
}

export function countNodes(tree: readonly DepartmentNode[]): number {
  return tree.reduce((sum, n) => sum + 1 + countNodes(n.children), 0);
}

/** Members of a department and all departments below it. */
export function subtreeMembers(node: DepartmentNode): number {
  return node.children.reduce((sum, c) => sum + subtreeMembers(c), node.member_count);
}

/** Members of every department including everything below it, by id. */
export function subtreeTotals(tree: readonly DepartmentNode[]): Map<number, number> {
  const totals = new Map<number, number>();
  const walk = (n: DepartmentNode): number => {
    const total = n.children.reduce((sum, c) => sum + walk(c), n.member_count);
    totals.set(n.id, total);
    return total;
  };
  tree.forEach(walk);
  return totals;
}

export function findNode(tree: readonly DepartmentNode[], id: number): DepartmentNode | undefined {
  for (const n of tree) {
    if (n.id === id) return n;
    const inner = findNode(n.children, id);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Nodes whose name or leader contains the keyword (case-insensitive), with their ancestors for
 * context and their whole subtree (searching a team shows its sub-teams too).
 */
export function filterTree(tree: readonly DepartmentNode[], keyword: string): DepartmentNode[] {
  const kw = keyword.trim().toLowerCase();
  if (!kw) return [...tree];
  return tree.flatMap((n) => {
    const hit = n.name.toLowerCase().includes(kw) || (n.leader_name ?? '').toLowerCase().includes(kw);
    if (hit) return [n];
    const children = filterTree(n.children, kw);
    return children.length ? [{ ...n, children }] : [];
  });
}
