import { Flex, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';

interface Props<T extends { id: number; name: string }> {
  refs: readonly T[];
  /** Tags shown before "+N". */
  max?: number;
  /** Shown when there are none. */
  empty?: ReactNode;
  /** Decorates each tag (for example a token status colour). */
  renderTag?: (ref: T) => ReactNode;
}

/** A list of named references as tags, the rest behind "+N" with their names on hover. */
export function RefTags<T extends { id: number; name: string }>({ refs, max = 3, empty, renderTag }: Props<T>) {
  if (!refs.length) return <Typography.Text type="secondary">{empty ?? '-'}</Typography.Text>;
  const rest = refs.slice(max);
  return (
    <Flex gap={4} wrap>
      {refs.slice(0, max).map((r) =>
        renderTag ? (
          <span key={r.id}>{renderTag(r)}</span>
        ) : (
          <Tag key={r.id} style={{ marginInlineEnd: 0 }}>
            {r.name}
          </Tag>
        ),
      )}
      {rest.length > 0 && (
        <Tooltip title={rest.map((r) => r.name).join('、')}>
          <Tag style={{ marginInlineEnd: 0 }}>+{rest.length}</Tag>
        </Tooltip>
      )}
    </Flex>
  );
}
