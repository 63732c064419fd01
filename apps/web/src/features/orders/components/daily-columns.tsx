import { InfoCircleOutlined } from '@ant-design/icons';
import type { OrderDailyFigures, OrderDailyRow, OrderSplit } from '@ads/contracts';
import { Flex, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ListColumn } from '@/components/list-kit';
import { countText, countryName, usdText } from './format';

type T = TFunction<'orders'>;
type Lang = 'zh' | 'en';

const FIELDS = [
  ['orders', 'orders', 'count', 90],
  ['paid_usd', 'paidUsd', 'usd', 120],
  ['refunds_usd', 'refundsUsd', 'usd', 120],
  ['revenue_usd', 'revenueUsd', 'usd', 120],
  ['payers', 'payers', 'count', 110],
  ['new_payers', 'newPayers', 'count', 130],
  ['arppu', 'arppu', 'usd', 100],
] as const;

/** The name of a split key: a site, drama or product name, a country, or "none". */
export function splitKeyName(split: OrderSplit, key: OrderDailyRow['key'], t: T): string {
  if (!key) return '';
  if (split === 'country') return key.code ? countryName(key.code) : t('none.country');
  return key.name || t(`none.${split === 'none' ? 'site' : split}`);
}

/** The day table's columns: day, the split key, and the figures with their totals (the sum of every row). */
export function dailyColumns({ t, lang, split, totals }: { t: T; lang: Lang; split: OrderSplit; totals: OrderDailyFigures | null }): ListColumn<OrderDailyRow>[] {
  const value = (k: (typeof FIELDS)[number][0], unit: 'count' | 'usd', f: OrderDailyFigures) => {
    const text = unit === 'usd' ? usdText(f[k], lang) : countText(f[k], lang);
    if (k !== 'refunds_usd' || f.refunds === 0) return <span style={{ fontVariantNumeric: 'tabular-nums' }}>{text}</span>;
    return (
      <Flex vertical align="flex-end" gap={0}>
        <span style={{ fontVariantNumeric: 'tabular-nums' }}>{text}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('daily.refundCount', { count: f.refunds })}
        </Typography.Text>
      </Flex>
    );
  };
  return [
    { key: 'day', title: t('daily.columns.day'), sortable: true, locked: true, fixed: 'left', width: 110, render: (_, r) => r.day },
    ...(split === 'none'
      ? []
      : [
          {
            key: 'key',
            title: t(`daily.columns.key.${split}`),
            sortable: true,
            locked: true,
            width: 180,
            render: (_: unknown, r: OrderDailyRow) => <Typography.Text ellipsis={{ tooltip: splitKeyName(split, r.key, t) }}>{splitKeyName(split, r.key, t)}</Typography.Text>,
          } satisfies ListColumn<OrderDailyRow>,
        ]),
    ...FIELDS.map(
      ([k, label, unit, width]): ListColumn<OrderDailyRow> => ({
        key: k,
        title: (
          <Tooltip title={t(`daily.help.${label}`)}>
            <span>
              {t(`daily.columns.${label}`)} <InfoCircleOutlined style={{ fontSize: 12 }} />
            </span>
          </Tooltip>
        ),
        label: t(`daily.columns.${label}`),
        align: 'right',
        sortable: true,
        width,
        render: (_, r) => value(k, unit, r),
        ...(totals ? { total: value(k, unit, totals) } : {}),
      }),
    ),
  ];
}
