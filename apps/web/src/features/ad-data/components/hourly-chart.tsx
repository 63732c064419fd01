import { formatMetric, type ReportLevel } from '@ads/contracts';
import { Alert, Drawer, Flex, Segmented, Skeleton, Typography, theme } from 'antd';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { todayIn, useReportTimezone } from '@/components/list-kit';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import { useSettings } from '@/stores/settings-store';
import { useAdHourly } from '../api/use-ad-queries';
import { echarts } from './echarts';

type Series = 'spend' | 'impressions' | 'clicks';

interface Target {
  level: ReportLevel;
  /** The row's id; undefined = everything in view. */
  id: number | undefined;
  name: string;
}

/**
 * Today's figures per report-zone hour against yesterday's, for one report row (spend,
 * impressions or clicks: the platform gives no pixel figures per hour).
 */
export function HourlyChartDrawer({ target, onClose }: { target: Target | null; onClose: () => void }) {
  const { t } = useTranslation('adData');
  const zone = useReportTimezone();
  const today = todayIn(zone);
  const hourly = useAdHourly(target?.level ?? 'optimizer', target?.id, today, { enabled: target !== null });
  const [series, setSeries] = useState<Series>('spend');
  const isDark = useSettings((s) => s.isDark);
  const { token } = theme.useToken();
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const data = hourly.data;
  const value = (v: number) => (series === 'spend' ? formatMetric('spend', v, lang) : formatMetric('impressions', v, lang));
  const option = data && {
    backgroundColor: 'transparent',
    color: [token.colorPrimary, token.colorTextQuaternary],
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => value(Number(v)) },
    legend: { data: [data.day, data.previous_day], bottom: 0, textStyle: { color: token.colorText } },
    grid: { left: 56, right: 16, top: 16, bottom: 56 },
    xAxis: { type: 'category', data: data.series.map((p) => `${String(p.hour).padStart(2, '0')}:00`), axisLabel: { color: token.colorTextSecondary } },
    yAxis: { type: 'value', axisLabel: { color: token.colorTextSecondary }, splitLine: { lineStyle: { color: token.colorBorderSecondary } } },
    series: [
      { name: data.day, type: 'line', smooth: true, data: data.series.map((p) => p[series]) },
      { name: data.previous_day, type: 'line', smooth: true, lineStyle: { type: 'dashed' }, data: data.series.map((p) => p[`previous_${series}`]) },
    ],
  };
  const total = (key: 'spend' | 'previous_spend') => data?.series.reduce((s, p) => s + p[key], 0) ?? 0;

  const focusReturn = useDrawerFocusReturn(target !== null);
  return (
    <Drawer open={target !== null} onClose={onClose} size={720} title={t('hourly.title', { name: target?.name ?? '' })} destroyOnHidden {...focusReturn}>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('hourly.note', { zone })}</Typography.Text>
        <Segmented<Series>
          value={series}
          onChange={setSeries}
          options={(['spend', 'impressions', 'clicks'] as const).map((s) => ({ value: s, label: t(`hourly.series.${s}`) }))}
        />
        {hourly.isError && <Alert type="warning" showIcon title={t('hourly.failed')} />}
        {hourly.isPending && <Skeleton active />}
        {data && (
          <>
            <Typography.Text data-testid="hourly-totals">
              {t('hourly.totals', { today: formatMetric('spend', total('spend'), lang), yesterday: formatMetric('spend', total('previous_spend'), lang) })}
            </Typography.Text>
            <ReactEChartsCore echarts={echarts} option={option} theme={isDark ? 'dark' : undefined} opts={{ renderer: 'svg' }} style={{ height: 320 }} notMerge />
          </>
        )}
      </Flex>
    </Drawer>
  );
}
