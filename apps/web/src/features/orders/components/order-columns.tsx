import { InfoCircleOutlined } from '@ant-design/icons';
import type { OrderListResult, OrderRow, OrderStatus } from '@ads/contracts';
import { Button, Flex, Popover, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { ListColumn } from '@/components/list-kit';
import { formatDateTime, formatMoney } from '@/lib/format';
import { countText, countryName, usdText } from './format';

type Lang = 'zh' | 'en';
type T = TFunction<'orders'>;

const STATUS_COLORS: Record<OrderStatus, string> = { paid: 'success', partially_refunded: 'warning', refunded: 'error' };

export function OrderStatusTag({ status, t }: { status: OrderStatus; t: T }) {
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}

/** How the buyer of an order was attributed, as a tag. */
export function AttributionTag({ source, t }: { source: OrderRow['attribution_source']; t: T }) {
  return source ? <Tag color="processing">{t(`attribution.${source}`)}</Tag> : <Tag>{t('attribution.organic')}</Tag>;
}

/** The drama and episode, or the product and quantity, of an order. */
export function contentText(o: Pick<OrderRow, 'drama_name' | 'drama_external_id' | 'episode' | 'product_name' | 'product_external_id' | 'quantity'>, t: T): string {
  if (o.drama_name || o.drama_external_id) return [o.drama_name ?? o.drama_external_id, o.episode ? t('list.episode', { n: o.episode }) : ''].filter(Boolean).join(' · ');
  if (o.product_name || o.product_external_id) return [o.product_name ?? o.product_external_id, o.quantity ? t('list.quantity', { n: o.quantity }) : ''].filter(Boolean).join(' ');
  return '';
}

const right = { align: 'right' as const };
const money = (amount: string, currency: string) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMoney(Number(amount), currency)}</span>;
const titled = (text: string, help: string): ReactNode => (
  <Tooltip title={help}>
    <span>
      {text} <InfoCircleOutlined style={{ fontSize: 12 }} />
    </span>
  </Tooltip>
);

/** The original-currency total of a column: the amount when one currency, else "mixed" with the per-currency figures. */
function currencyTotal(summary: OrderListResult['summary'], field: 'amount' | 'refunded_amount', t: T) {
  const list = summary.currencies;
  if (list.length === 0) return null;
  if (list.length === 1) return money(list[0]![field], list[0]!.currency);
  return (
    <Popover
      title={t('list.mixedHelp')}
      content={
        <Flex vertical gap={2}>
          {list.map((c) => (
            <span key={c.currency}>{formatMoney(Number(c[field]), c.currency)}</span>
          ))}
        </Flex>
      }
    >
      <Typography.Text underline style={{ cursor: 'help' }} data-testid={`mixed-${field}`}>
        {t('list.mixed')}
      </Typography.Text>
    </Popover>
  );
}

/**
 * The order table's columns (keys are the export's column keys): the totals row reads the
 * server's summary, which sums every matching order.
 */
export function orderColumns({ t, lang, summary, onOpen }: { t: T; lang: Lang; summary: OrderListResult['summary'] | null; onOpen: (o: OrderRow) => void }): ListColumn<OrderRow>[] {
  const total = (node: ReactNode) => (summary ? { total: node } : {});
  return [
    {
      key: 'order_no',
      title: t('list.columns.orderNo'),
      locked: true,
      sortable: true,
      fixed: 'left',
      width: 150,
      render: (_, o) => (
        <Tooltip title={o.order_no} placement="topLeft">
          <Button type="link" size="small" onClick={() => onOpen(o)} aria-label={t('list.open', { orderNo: o.order_no })} style={{ padding: 0, maxWidth: '100%', justifyContent: 'flex-start' }}>
            <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{o.order_no}</span>
          </Button>
        </Tooltip>
      ),
      ...total(summary && t('list.totalOrders', { count: summary.orders })),
    },
    { key: 'paid_at', title: t('list.columns.paidAt'), sortable: true, width: 135, render: (_, o) => formatDateTime(o.paid_at) },
    { key: 'site', title: t('list.columns.site'), width: 130, render: (_, o) => <Typography.Text ellipsis={{ tooltip: o.site_name }}>{o.site_name}</Typography.Text> },
    { key: 'amount', title: t('list.columns.amount'), width: 120, ...right, render: (_, o) => money(o.amount, o.currency), ...total(summary && currencyTotal(summary, 'amount', t)) },
    {
      key: 'refunded',
      title: t('list.columns.refunded'),
      width: 120,
      ...right,
      render: (_, o) => (Number(o.refunded_amount) > 0 ? money(o.refunded_amount, o.currency) : <Typography.Text type="secondary">-</Typography.Text>),
      ...total(summary && currencyTotal(summary, 'refunded_amount', t)),
    },
    { key: 'paid_usd', title: titled(t('list.columns.paidUsd'), t('list.help.paidUsd')), label: t('list.columns.paidUsd'), sortable: true, width: 130, ...right, render: (_, o) => usdText(o.paid_usd, lang), ...total(summary && usdText(summary.paid_usd, lang)) },
    {
      key: 'usd_amount',
      title: titled(t('list.columns.usdAmount'), t('list.help.usdAmount')),
      label: t('list.columns.usdAmount'),
      sortable: true,
      width: 115,
      ...right,
      render: (_, o) => usdText(o.usd_amount, lang),
      ...total(summary && usdText(summary.usd_amount, lang)),
    },
    { key: 'status', title: t('list.columns.status'), sortable: true, width: 100, render: (_, o) => <OrderStatusTag status={o.status} t={t} /> },
    {
      key: 'buyer',
      title: t('list.columns.buyer'),
      width: 140,
      render: (_, o) => (
        <Flex gap={4} align="center" style={{ minWidth: 0 }}>
          <Typography.Text ellipsis={{ tooltip: o.app_user_id }} style={{ maxWidth: 70 }}>
            {o.app_user_id}
          </Typography.Text>
          <Tag color={o.is_new_payer ? 'green' : 'default'}>{t(o.is_new_payer ? 'payer.new' : 'payer.returning')}</Tag>
        </Flex>
      ),
      ...total(summary && t('list.newPayers', { count: countText(summary.new_payers, lang) })),
    },
    { key: 'country', title: t('list.columns.country'), sortable: true, width: 100, render: (_, o) => (o.country ? <Tooltip title={countryName(o.country)}>{o.country}</Tooltip> : '-') },
    {
      key: 'content',
      title: t('list.columns.content'),
      width: 160,
      render: (_, o) => (
        <Flex vertical gap={0} style={{ minWidth: 0 }}>
          <Typography.Text ellipsis={{ tooltip: contentText(o, t) }}>{contentText(o, t) || '-'}</Typography.Text>
          <Typography.Text type="secondary" ellipsis={{ tooltip: o.site_name }} style={{ fontSize: 12 }}>
            {o.site_name}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'attribution',
      title: t('list.columns.attribution'),
      width: 175,
      render: (_, o) =>
        o.attribution_source ? (
          <Flex vertical gap={0} style={{ minWidth: 0 }}>
            <Typography.Text ellipsis={{ tooltip: o.campaign?.name ?? o.campaign_id }}>{o.campaign?.name ?? o.campaign_id ?? '-'}</Typography.Text>
            <Typography.Text type="secondary" ellipsis={{ tooltip: o.ad?.name ?? o.ad_id }} style={{ fontSize: 12 }}>
              {o.ad?.name ?? o.ad_id ?? ''}
            </Typography.Text>
          </Flex>
        ) : (
          <AttributionTag source={null} t={t} />
        ),
    },
    { key: 'source', title: t('list.columns.source'), width: 90, render: (_, o) => t(`source.${o.source}`) },
  ];
}

/** Columns hidden until the user shows them. */
export const ORDER_HIDDEN_COLUMNS = ['site', 'refunded', 'paid_usd', 'source'];
