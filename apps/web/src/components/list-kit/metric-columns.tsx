import { formatMetric, metricChange, metrics, type MetricDef, type MetricKey } from '@ads/contracts';
import { Flex, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { ListColumn } from './list-table';

/** Metric values by key, as report rows and summaries carry them (null: "-", a zero denominator). */
export type MetricValues = Partial<Record<MetricKey, number | null>>;

/** A row of a report table: its metrics, and the previous period's when comparing. */
export interface MetricRow {
  metrics: MetricValues;
  previous?: MetricValues;
}

/** A report answer's totals (the server's `summary`): sums of every matching row, ratios from the sums. */
export interface MetricSummary {
  metrics: MetricValues;
  previous?: MetricValues;
}

interface Options {
  lang: 'zh' | 'en';
  /** Show the change against the previous period under each value. */
  compare?: boolean;
  /** The totals row's values (the server's summary). */
  summary?: MetricSummary | null;
  /** Sortable on the server (reports sort by any metric). */
  sortable?: boolean;
  /** Cohort metrics with nothing matured in the range (the report's `not_matured`): shown as `notMaturedText`, never a number. */
  notMatured?: readonly MetricKey[];
  notMaturedText?: string;
}

/** Up is good for most metrics, down for costs: the change is green when it goes the good way. */
function changeColor(def: MetricDef, change: number): 'success' | 'danger' | 'secondary' {
  if (!def.better || change === 0) return 'secondary';
  return (change > 0) === (def.better === 'up') ? 'success' : 'danger';
}

function MetricCell({ k, value, previous, compare, lang }: { k: MetricKey; value: number | null | undefined; previous: number | null | undefined; compare: boolean; lang: 'zh' | 'en' }) {
  const text = formatMetric(k, value ?? null, lang);
  if (!compare) return <span style={{ fontVariantNumeric: 'tabular-nums' }}>{text}</span>;
  const change = metricChange(value ?? null, previous ?? null);
  return (
    <Flex vertical align="flex-end" gap={0}>
      <span style={{ fontVariantNumeric: 'tabular-nums' }}>{text}</span>
      <Typography.Text type={change === null ? 'secondary' : changeColor(metrics[k], change)} style={{ fontSize: 12 }} data-testid={`change-${k}`}>
        {change === null ? '-' : `${change > 0 ? '+' : ''}${(change * 100).toFixed(1)}%`}
      </Typography.Text>
    </Flex>
  );
}

/**
 * Report columns from the metric registry (contracts/metrics.ts): title and tooltip in the
 * user's language, values formatted as exports format them, right-aligned, optionally with the
 * change against the previous period, and the totals row from the server's summary.
 */
/**
 * A metric column's width: wide enough that the longest word of its title is not split across
 * lines ("Impressio/ns"), beside the sorter and the cell padding; CJK titles wrap between any two
 * characters, so they keep the base width. A summed dollar amount (spend, revenue) is wider: the
 * company's total over a month runs to seven digits ("$153,816.7/4" wrapped at 110 px on a
 * screenshot; "$1,538,167.40" is ~115 px in bold).
 */
export function metricWidth(title: string, compare: boolean, amount = false): number {
  const base = (compare ? 120 : 110) + (amount ? 36 : 0);
  const longest = Math.max(0, ...title.split(/[\s/()（）]+/).map((w) => (/^[\x20-\x7e]+$/.test(w) ? w.length : 0)));
  return Math.max(base, Math.ceil(longest * 7.8) + 58);
}

/** A sum of money: its total grows with the rows, unlike a ratio or a cost per unit. */
const isAmount = (k: MetricKey) => metrics[k].kind === 'sum' && metrics[k].unit === 'usd';

export function metricColumns<T extends MetricRow>(keys: readonly MetricKey[], { lang, compare = false, summary, sortable = true, notMatured = [], notMaturedText = '-' }: Options): ListColumn<T>[] {
  return keys.map((k) => {
    if (notMatured.includes(k)) {
      const cell = (
        <Typography.Text type="secondary" data-testid={`not-matured-${k}`}>
          {notMaturedText}
        </Typography.Text>
      );
      return {
        key: k,
        title: (
          <Tooltip title={metrics[k].help[lang]}>
            <span>{metrics[k].title[lang]}</span>
          </Tooltip>
        ),
        label: metrics[k].title[lang],
        align: 'right',
        width: metricWidth(metrics[k].title[lang], compare, isAmount(k)),
        sortable: false,
        render: () => cell,
        ...(summary ? { total: cell } : {}),
      };
    }
    const def: MetricDef = metrics[k];
    const title: ReactNode = (
      <Tooltip title={def.help[lang]}>
        <span>{def.title[lang]}</span>
      </Tooltip>
    );
    return {
      key: k,
      title,
      label: def.title[lang],
      align: 'right',
      width: metricWidth(def.title[lang], compare, isAmount(k)),
      sortable,
      render: (_: unknown, row: T) => <MetricCell k={k} value={row.metrics[k]} previous={row.previous?.[k]} compare={compare} lang={lang} />,
      ...(summary ? { total: <MetricCell k={k} value={summary.metrics[k]} previous={summary.previous?.[k]} compare={compare} lang={lang} /> } : {}),
    };
  });
}

/** The metrics a report shows before the user chooses (the registry's defaultVisible). */
export const defaultHiddenMetrics = (keys: readonly MetricKey[]) => keys.filter((k) => !metrics[k].defaultVisible);
