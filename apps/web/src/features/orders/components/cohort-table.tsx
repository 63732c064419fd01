import type { OrderCohortResult } from '@ads/contracts';
import { Table, Tooltip, Typography, theme } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { ListEmpty, tableScrollX, type ListResult } from '@/components/list-kit';
import { useSettings } from '@/stores/settings-store';
import { countText, roiText, usdText } from './format';

/** The ages shown as "key days" (the registry's cohort ages). */
export const KEY_AGES = [0, 1, 3, 7, 14, 30];
export const ALL_AGES = Array.from({ length: 31 }, (_, n) => n);

type Row = OrderCohortResult['rows'][number];
type Line = { key: string; day: string; new_payers: number; spend: (n: number) => number | null; revenue: (number | null)[]; total?: boolean };

interface Props {
  result: ListResult<OrderCohortResult>;
  ages: readonly number[];
  /** Whether filters are applied (an empty triangle then says "no results"). */
  filtered: boolean;
}

/**
 * The cohort triangle: one row per acquisition day, Dn = what its new payers had paid by the end
 * of day d+n (minus refunds), or ROI against the day's spend. A cell whose day has not ended yet
 * reads "not matured", never a number; the totals row adds the matured cells of each column.
 */
export function CohortTable({ result, ages, filtered }: Props) {
  const { t } = useTranslation('orders');
  const { t: tc } = useTranslation();
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const { token } = theme.useToken();
  const data = result.data;
  const roi = data?.metric === 'roi';
  const notMatured = (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="not-matured">
      {tc('table.notMatured')}
    </Typography.Text>
  );
  const cell = (line: Line, n: number) => {
    const v = line.revenue[n];
    if (v === null || v === undefined) return notMatured;
    if (!roi) return usdText(v, lang);
    const spend = line.spend(n);
    const ratio = spend ? (v / spend) * 100 : null;
    return ratio !== null && ratio >= 100 ? <Typography.Text type="success">{roiText(ratio, lang)}</Typography.Text> : roiText(ratio, lang);
  };
  // The spend column's total is the sum of its rows (each age's ROI total uses the spend of its matured days).
  const spendTotal = (data?.rows ?? []).reduce((s, r) => s + Math.round((r.spend_usd ?? 0) * 100), 0) / 100;
  const columns: (ColumnType<Line> & { key: string })[] = [
    { key: 'day', title: t('cohort.day'), fixed: 'left', width: 140, render: (_, l) => (l.total ? <Typography.Text strong>{tc('table.totalsRow')}</Typography.Text> : l.day) },
    { key: 'new_payers', title: t('cohort.newPayers'), fixed: 'left', width: 110, align: 'right', render: (_, l) => countText(l.new_payers, lang) },
    ...(roi ? [{ key: 'spend', title: t('cohort.spend'), width: 110, align: 'right' as const, render: (_: unknown, l: Line) => usdText(l.total ? spendTotal : l.spend(0), lang) }] : []),
    ...ages.map((n) => ({ key: `d${n}`, title: `D${n}`, width: roi ? 90 : 100, align: 'right' as const, render: (_: unknown, l: Line) => cell(l, n) })),
  ];
  const lines: Line[] = (data?.rows ?? []).map((r: Row) => ({ key: r.day, day: r.day, new_payers: r.new_payers, spend: () => r.spend_usd, revenue: r.revenue_usd }));
  const totals = data && data.rows.length > 0 ? data.totals : null;
  return (
    <Table<Line>
      size="small"
      bordered
      rowKey="key"
      columns={columns}
      dataSource={lines}
      pagination={false}
      loading={result.isPlaceholderData}
      scroll={{ x: tableScrollX(columns) }}
      sticky
      locale={{ emptyText: <ListEmpty result={result} filtered={filtered} text={t('cohort.empty')} /> }}
      summary={() =>
        totals ? (
          <Table.Summary fixed="bottom">
            <Table.Summary.Row data-testid="totals-row" style={{ background: token.colorFillQuaternary }}>
              {columns.map((c, i) => {
                const line: Line = { key: 'total', day: '', new_payers: totals.new_payers, spend: (n) => totals.spend_usd[n] ?? null, revenue: totals.revenue_usd, total: true };
                return (
                  <Table.Summary.Cell key={c.key} index={i} align={c.align}>
                    <Tooltip title={c.key.startsWith('d') && c.key !== 'day' && roi ? t('cohort.roiHelp') : undefined}>
                      <Typography.Text strong>{c.render?.(undefined, line, 0) as React.ReactNode}</Typography.Text>
                    </Tooltip>
                  </Table.Summary.Cell>
                );
              })}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null
      }
    />
  );
}
