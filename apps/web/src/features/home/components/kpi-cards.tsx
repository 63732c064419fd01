import { QuestionCircleOutlined } from '@ant-design/icons';
import { formatMetric, metrics, type DashboardDay } from '@ads/contracts';
import { Card, Flex, Statistic, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/stores/settings-store';

type Key = 'spend' | 'revenue' | 'roi' | 'd0_roi' | 'orders';
const KEYS: Key[] = ['spend', 'revenue', 'roi', 'd0_roi', 'orders'];

/**
 * Today's spend, revenue, ROI, D0 ROI and orders, each with yesterday's beneath it. Metric titles
 * and formats come from the registry, so they read as in 广告数据; today's D0 ROI is "not matured"
 * until the day ends, never a number.
 */
export function KpiCards({ today, yesterday, loading }: { today: DashboardDay | undefined; yesterday: DashboardDay | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation('home');
  const { t: tc } = useTranslation();
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const title = (k: Key) => (k === 'orders' ? t('delivery.orders') : metrics[k].title[lang]);
  const help = (k: Key) => (k === 'orders' ? t('delivery.ordersHelp') : metrics[k].help[lang]);
  const value = (k: Key, d: DashboardDay | undefined) => {
    if (!d) return '-';
    if (k === 'orders') return d.orders.toLocaleString(i18n.language);
    if (k === 'd0_roi' && !d.d0_matured) return tc('table.notMatured');
    return formatMetric(k, d[k], lang);
  };
  return (
    <Flex gap={16} wrap>
      {KEYS.map((k) => (
        <Card key={k} size="small" loading={loading} style={{ flex: '1 1 180px', minWidth: 170 }} data-testid={`kpi-${k}`}>
          <Statistic
            title={
              <Flex gap={6} align="center">
                <span>{title(k)}</span>
                <Tooltip title={k === 'd0_roi' && today && !today.d0_matured ? `${help(k)} ${t('delivery.d0Hint')}` : help(k)}>
                  <QuestionCircleOutlined style={{ fontSize: 12 }} aria-label={help(k)} />
                </Tooltip>
              </Flex>
            }
            value={value(k, today)}
            aria-label={title(k)}
          />
          <Typography.Text type="secondary" style={{ fontSize: 13 }} data-testid={`kpi-${k}-yesterday`}>
            {t('delivery.yesterdayValue', { value: value(k, yesterday) })}
          </Typography.Text>
        </Card>
      ))}
    </Flex>
  );
}
