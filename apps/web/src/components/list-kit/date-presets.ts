import dayjs from 'dayjs';

/** A day range, both ends included, `YYYY-MM-DD` in the reporting time zone. */
export type DayRange = [from: string, to: string];

export const DATE_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'thisMonth'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/** Today's day in a time zone (`YYYY-MM-DD`), whatever the browser's own zone is. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The day ranges of PRODUCT.md's presets, computed in the reporting time zone (the session's
 * `report_timezone`): at 07:00 in Shanghai "today" is already the next day in Beijing while it is
 * still yesterday in UTC. "Last 7 days" includes today.
 */
export function presetRange(preset: DatePreset, timeZone: string, now: Date = new Date()): DayRange {
  const today = dayjs(todayIn(timeZone, now));
  const day = (d: dayjs.Dayjs) => d.format('YYYY-MM-DD');
  switch (preset) {
    case 'today':
      return [day(today), day(today)];
    case 'yesterday':
      return [day(today.subtract(1, 'day')), day(today.subtract(1, 'day'))];
    case 'last7':
      return [day(today.subtract(6, 'day')), day(today)];
    case 'last30':
      return [day(today.subtract(29, 'day')), day(today)];
    case 'thisMonth':
      return [day(today.startOf('month')), day(today)];
  }
}

/** Which preset a range is, if any (so the picker can say "Last 7 days" for a shared link). */
export function presetOf(range: DayRange | undefined, timeZone: string, now: Date = new Date()): DatePreset | undefined {
  if (!range) return undefined;
  return DATE_PRESETS.find((p) => {
    const r = presetRange(p, timeZone, now);
    return r[0] === range[0] && r[1] === range[1];
  });
}
