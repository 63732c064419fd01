import { lazy, Suspense, useState, type ComponentProps } from 'react';

// ECharts is large: it loads with the first chart opened, not with the report screens.
const Drawer = lazy(() => import('./hourly-chart').then((m) => ({ default: m.HourlyChartDrawer })));

/**
 * The hourly chart drawer, loaded on first use. Once opened it stays mounted, so that closing
 * runs the drawer's close (animation, and focus back to the opener when focus is lost).
 */
export function LazyHourlyChart(props: ComponentProps<typeof Drawer>) {
  const [used, setUsed] = useState(false);
  if (props.target && !used) setUsed(true);
  if (!props.target && !used) return null;
  return (
    <Suspense fallback={null}>
      <Drawer {...props} />
    </Suspense>
  );
}
