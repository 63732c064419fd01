import { formatMetric, type DashboardDay } from '@ads/contracts';
import { theme } from 'antd';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/stores/settings-store';
import { echarts } from './echarts';

/**
 * The last 30 report days: spend (bars) against attributed revenue (line) in USD, ROI (%) on the
 * right axis; organic revenue dashed beside them on a company-wide view (it is not in ROI).
 */
export default function TrendChart({ trend, company }: { trend: DashboardDay[]; company: boolean }) {
  const { t } = useTranslation('home');
  const { token } = theme.useToken();
  const isDark = useSettings((s) => s.isDark);
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const name = { spend: t('delivery.series.spend'), revenue: t('delivery.series.revenue'), roi: t('delivery.series.roi'), organic: t('delivery.series.organic') };
  const axisLabel = { color: token.colorTextSecondary };
  const option = {
    backgroundColor: 'transparent',
    color: [token.colorPrimary, token.colorSuccess, token.colorWarning, token.colorTextTertiary],
    tooltip: {
      trigger: 'axis',
      valueFormatter: undefined,
      formatter: (params: { seriesName: string; value: number | null; marker: string; axisValue: string }[]) => {
        const lines = params.map((p) => `${p.marker}${p.seriesName} ${p.seriesName === name.roi ? formatMetric('roi', p.value, lang) : formatMetric('spend', p.value, lang)}`);
        return [params[0]?.axisValue ?? '', ...lines].join('<br/>');
      },
    },
    legend: { bottom: 0, textStyle: { color: token.colorText } },
    grid: { left: 64, right: 56, top: 24, bottom: 56 },
    xAxis: { type: 'category', data: trend.map((d) => d.day.slice(5)), axisLabel },
    yAxis: [
      { type: 'value', axisLabel: { ...axisLabel, formatter: (v: number) => `$${v}` }, splitLine: { lineStyle: { color: token.colorBorderSecondary } } },
      { type: 'value', axisLabel: { ...axisLabel, formatter: '{value}%' }, splitLine: { show: false } },
    ],
    series: [
      { name: name.spend, type: 'bar', barMaxWidth: 18, data: trend.map((d) => d.spend) },
      { name: name.revenue, type: 'line', smooth: true, data: trend.map((d) => d.revenue) },
      { name: name.roi, type: 'line', smooth: true, yAxisIndex: 1, connectNulls: false, data: trend.map((d) => (d.roi === null ? null : Math.round(d.roi * 100) / 100)) },
      ...(company ? [{ name: name.organic, type: 'line', smooth: true, lineStyle: { type: 'dashed' }, data: trend.map((d) => d.organic_revenue ?? 0) }] : []),
    ],
  };
  return <ReactEChartsCore echarts={echarts} option={option} theme={isDark ? 'dark' : undefined} opts={{ renderer: 'svg' }} style={{ height: 300 }} notMerge />;
}
