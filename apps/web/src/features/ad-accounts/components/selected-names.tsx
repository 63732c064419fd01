import { Tag, Typography } from 'antd';

const MAX_NAMES = 20;

/** The names of the rows a bulk action applies to, the first twenty then "…". */
export function SelectedNames({ names }: { names: readonly string[] }) {
  return (
    <div style={{ marginBottom: 16, maxHeight: 96, overflow: 'auto' }}>
      {names.slice(0, MAX_NAMES).map((n, i) => (
        <Tag key={`${n}-${i}`} style={{ marginBottom: 4 }}>
          {n}
        </Tag>
      ))}
      {names.length > MAX_NAMES && <Typography.Text type="secondary">…</Typography.Text>}
    </div>
  );
}
