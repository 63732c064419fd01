import type { OrderDetail } from '@ads/contracts';
import { Alert, Button, Collapse, Descriptions, Drawer, Empty, Flex, Skeleton, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '@/lib/format';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import { useSettings } from '@/stores/settings-store';
import { useOrderDetail } from '../api/use-order-detail';
import { AttributionTag, contentText, OrderStatusTag } from './order-columns';
import { countText, countryName, usdText } from './format';

/** Labels on one line: the drawer is wide enough, and wrapped labels make every row twice as tall. */
const LABEL = { label: { whiteSpace: 'nowrap' as const, width: 1 } };

const PARSED_KEYS = ['campaign_id', 'adset_id', 'ad_id', 'drama_id', 'episode', 'product_id'] as const;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Flex vertical gap={8}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </Flex>
  );
}

const Url = ({ url }: { url: string | null }) =>
  url ? (
    <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
      {url}
    </Typography.Text>
  ) : (
    '-'
  );

/** A mirrored object (campaign, ad set, ad, ad account) by name, or the platform id the order names when it is not synced. */
function objectText(o: { name: string; platform_id: string } | null, platformId: string | null, notMirrored: (id: string) => string) {
  if (o) return `${o.name} (${o.platform_id})`;
  return platformId ? notMirrored(platformId) : '-';
}

interface Props {
  id: number | undefined;
  onClose: () => void;
  /** Opens another order (the buyer's first one). */
  onOpen: (id: number) => void;
}

/** One order: what was paid, how the buyer was attributed (and what the landing URL says), the buyer, refunds and the raw events received. */
export function OrderDetailDrawer({ id, onClose, onOpen }: Props) {
  const { t } = useTranslation('orders');
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const { token } = theme.useToken();
  const detail = useOrderDetail(id);
  const d: OrderDetail | undefined = detail.data;
  const focusReturn = useDrawerFocusReturn(id !== undefined);
  const o = d?.order;

  return (
    <Drawer open={id !== undefined} onClose={onClose} size={760} title={o ? t('detail.title', { orderNo: o.order_no }) : ' '} destroyOnHidden {...focusReturn}>
      {detail.isPending && <Skeleton active />}
      {detail.isError && <Alert type="warning" showIcon title={t('detail.failed')} description={detail.error.message} />}
      {d && o && (
        <Flex vertical gap={20} data-testid="order-detail">
          <Section title={t('detail.sections.order')}>
            <Descriptions size="small" bordered column={2} styles={LABEL}>
              <Descriptions.Item label={t('detail.fields.orderNo')}>
                <Typography.Text copyable>{o.order_no}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.status')}>
                <OrderStatusTag status={o.status} t={t} />
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.site')}>{o.site_name}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.source')}>{t(`source.${o.source}`)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.paidAt')}>{formatDateTime(o.paid_at)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.paidDay')}>{o.paid_day}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.amount')}>{formatMoney(Number(o.amount), o.currency)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.refunded')}>{Number(o.refunded_amount) > 0 ? formatMoney(Number(o.refunded_amount), o.currency) : '-'}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.usd')}>
                {usdText(o.paid_usd, lang)}
                {o.refunded_usd > 0 && (
                  <Typography.Text type="secondary">
                    {' '}
                    → {usdText(o.usd_amount, lang)}
                  </Typography.Text>
                )}
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.unitPrice')}>{d.unit_price ? `${formatMoney(Number(d.unit_price), o.currency)}${o.quantity ? ` × ${o.quantity}` : ''}` : '-'}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.content')}>{contentText(o, t) || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.country')}>{o.country ? countryName(o.country) : '-'}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.registeredAt')} span={2}>
                {formatDateTime(d.user_registered_at) || '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.landingUrl')} span={2}>
                <Url url={d.landing_url} />
              </Descriptions.Item>
            </Descriptions>
          </Section>

          <Section title={t('detail.sections.attribution')}>
            <Flex gap={8} align="center" wrap>
              <AttributionTag source={d.attribution.source} t={t} />
              <Typography.Text type="secondary">{t(`attribution.explain.${d.attribution.source ?? 'organic'}`)}</Typography.Text>
            </Flex>
            <Descriptions size="small" bordered column={1} styles={LABEL}>
              <Descriptions.Item label={t('detail.fields.attributedBy')}>
                <Url url={d.attribution.landing_url} />
              </Descriptions.Item>
              {d.attribution.attributed_paid_at && <Descriptions.Item label={t('detail.fields.attributedAt')}>{formatDateTime(d.attribution.attributed_paid_at)}</Descriptions.Item>}
              <Descriptions.Item label={t('detail.fields.template')}>
                <Typography.Text code style={{ wordBreak: 'break-all' }}>
                  {d.attribution.link_template}
                </Typography.Text>
              </Descriptions.Item>
              {d.attribution.landing_url && (
                <Descriptions.Item label={t('detail.fields.parsed')}>
                  {d.attribution.parsed ? (
                    <Flex gap={6} wrap data-testid="parsed-landing">
                      {PARSED_KEYS.filter((k) => d.attribution.parsed![k] !== null).map((k) => (
                        <Tag key={k}>
                          {t(`detail.parsedKeys.${k}`)}: {String(d.attribution.parsed![k])}
                        </Tag>
                      ))}
                    </Flex>
                  ) : (
                    <Typography.Text type="secondary">{t('detail.noMatch')}</Typography.Text>
                  )}
                </Descriptions.Item>
              )}
              {d.attribution.source && (
                <>
                  <Descriptions.Item label={t('detail.fields.campaign')}>{objectText(d.attribution.campaign, o.campaign_id, (id) => t('detail.fields.notMirrored', { id }))}</Descriptions.Item>
                  <Descriptions.Item label={t('detail.fields.adset')}>{objectText(d.attribution.adset, o.adset_id, (id) => t('detail.fields.notMirrored', { id }))}</Descriptions.Item>
                  <Descriptions.Item label={t('detail.fields.ad')}>{objectText(d.attribution.ad, o.ad_id, (id) => t('detail.fields.notMirrored', { id }))}</Descriptions.Item>
                  <Descriptions.Item label={t('detail.fields.adAccount')}>{objectText(d.attribution.ad_account, null, () => '-')}</Descriptions.Item>
                  <Descriptions.Item label={t('detail.fields.owner')}>{d.attribution.owner?.name ?? '-'}</Descriptions.Item>
                </>
              )}
            </Descriptions>
          </Section>

          <Section title={t('detail.sections.buyer')}>
            <Descriptions size="small" bordered column={2} styles={LABEL}>
              <Descriptions.Item label={t('detail.fields.appUserId')}>
                <Typography.Text copyable>{d.buyer.app_user_id}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.payer')}>
                <Tag color={o.is_new_payer ? 'green' : 'default'}>{t(o.is_new_payer ? 'payer.new' : 'payer.returning')}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.firstOrder')}>
                {d.buyer.first_order.id !== null && d.buyer.first_order.id !== o.id ? (
                  <Button type="link" size="small" style={{ padding: 0, height: 'auto' }} onClick={() => onOpen(d.buyer.first_order.id!)} aria-label={t('detail.openFirst', { orderNo: d.buyer.first_order.order_no })}>
                    {d.buyer.first_order.order_no}
                  </Button>
                ) : (
                  d.buyer.first_order.order_no
                )}
                <Typography.Text type="secondary"> · {formatDateTime(d.buyer.first_order.paid_at)}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.acquisitionDay')}>{d.buyer.acquisition_day}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.buyerOrders')}>{countText(d.buyer.orders, lang)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.country')}>{d.buyer.country ? countryName(d.buyer.country) : '-'}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.buyerPaid')}>{usdText(d.buyer.paid_usd, lang)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.fields.buyerNet')}>{usdText(d.buyer.usd_amount, lang)}</Descriptions.Item>
            </Descriptions>
          </Section>

          <Section title={t('detail.sections.refunds')}>
            {d.refunds.length === 0 ? (
              <Typography.Text type="secondary">{t('detail.noRefunds')}</Typography.Text>
            ) : (
              <Descriptions size="small" bordered column={1} styles={LABEL}>
                {d.refunds.map((r) => (
                  <Descriptions.Item key={r.id} label={`${formatDateTime(r.refunded_at)} (${r.refund_day})`}>
                    {formatMoney(Number(r.amount), r.currency)} · {usdText(r.usd, lang)}
                  </Descriptions.Item>
                ))}
              </Descriptions>
            )}
          </Section>

          <Section title={t('detail.sections.events')}>
            {d.events.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <Collapse
                size="small"
                defaultActiveKey={d.events.map((e) => String(e.id))}
                items={d.events.map((e) => ({
                  key: String(e.id),
                  label: (
                    <Flex gap={8} align="center" wrap>
                      <Tag color={e.event === 'order.paid' ? 'success' : 'warning'}>{e.event}</Tag>
                      <Typography.Text type="secondary">
                        {t('detail.fields.receivedAt')} {formatDateTime(e.received_at)} · {t(`source.${e.source}`)}
                        {e.delivery_id !== null && ` · ${t('detail.fields.delivery', { id: e.delivery_id })}`}
                      </Typography.Text>
                    </Flex>
                  ),
                  children: (
                    <pre data-testid="raw-event" style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', color: token.colorText, background: token.colorFillTertiary, padding: 8, borderRadius: token.borderRadius }}>
                      {JSON.stringify(e.payload, null, 2)}
                    </pre>
                  ),
                }))}
              />
            )}
          </Section>
        </Flex>
      )}
    </Drawer>
  );
}
