import { lazy, Suspense, type ComponentProps } from 'react';

// ECharts is large: it loads with the first chart opened, not with the report screens.
const Drawer = lazy(() => import('./hourly-chart').then((m) => ({ default: m.HourlyChartDrawer })));

/** The hourly chart drawer, loaded on first use. */
export function LazyHourlyChart(props: ComponentProps<typeof Drawer>) {
  if (!props.target) return null;
  return (
    <Suspense fallback={null}>
      <Drawer {...props} />
    </Suspense>
  );
}
