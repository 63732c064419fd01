import type { OrderDailyResult, OrderSplit } from '@ads/contracts';
import { theme } from 'antd';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/stores/settings-store';
import { echarts } from './echarts';
import { countText, countryName, usdText } from './format';

interface Props {
  data: OrderDailyResult;
  split: OrderSplit;
}

/**
 * Revenue per day as bars (stacked by the split's largest keys), orders and new payers as lines
 * on their own axis. Colours come from the theme, so both themes read well.
 */
export default function DailyChart({ data, split }: Props) {
  const { t } = useTranslation('orders');
  const isDark = useSettings((s) => s.isDark);
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const { token } = theme.useToken();
  const days = data.chart.map((d) => d.day.slice(5));
  // The split's bars; orange and cyan stay for the lines, grey for "others".
  const palette = [token.colorPrimary, token.green, token.gold, token.red, token.purple, token.magenta];
  const keyName = (k: OrderDailyResult['split_series'][number]['key']) => {
    if (k === null) return t('daily.chart.others');
    if (split === 'country') return k.code ? countryName(k.code) : t('none.country');
    return k.name || t(`none.${split === 'none' ? 'site' : split}`);
  };
  const revenueSeries =
    split === 'none' || data.split_series.length === 0
      ? [{ name: t('daily.chart.revenue'), type: 'bar', data: data.chart.map((d) => d.revenue_usd), itemStyle: { color: token.colorPrimary } }]
      : data.split_series.map((s, i) => ({ name: keyName(s.key), type: 'bar', stack: 'revenue', data: s.revenue_usd, itemStyle: { color: s.key === null ? token.colorTextQuaternary : palette[i % palette.length] } }));
  const option = {
    backgroundColor: 'transparent',
    tooltip: {
      trigger: 'axis',
      valueFormatter: undefined,
      formatter: (params: { seriesName: string; value: number; marker: string; seriesType: string; axisValue: string }[]) =>
        [params[0]?.axisValue ?? '', ...params.map((p) => `${p.marker}${p.seriesName}: ${p.seriesType === 'line' ? countText(p.value, lang) : usdText(p.value, lang)}`)].join('<br/>'),
    },
    legend: { bottom: 0, type: 'scroll', textStyle: { color: token.colorText } },
    grid: { left: 64, right: 48, top: 24, bottom: 56 },
    xAxis: { type: 'category', data: days, axisLabel: { color: token.colorTextSecondary }, axisLine: { lineStyle: { color: token.colorBorder } } },
    yAxis: [
      { type: 'value', axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => `$${v}` }, splitLine: { lineStyle: { color: token.colorBorderSecondary } } },
      { type: 'value', minInterval: 1, axisLabel: { color: token.colorTextSecondary }, splitLine: { show: false } },
    ],
    series: [
      ...revenueSeries,
      { name: t('daily.chart.orders'), type: 'line', yAxisIndex: 1, smooth: true, data: data.chart.map((d) => d.orders), itemStyle: { color: token.orange } },
      { name: t('daily.chart.newPayers'), type: 'line', yAxisIndex: 1, smooth: true, data: data.chart.map((d) => d.new_payers), itemStyle: { color: token.cyan } },
    ],
  };
  return <ReactEChartsCore echarts={echarts} option={option} theme={isDark ? 'dark' : undefined} opts={{ renderer: 'svg' }} style={{ height: 300 }} notMerge />;
}
