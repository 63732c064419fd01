import { DatePicker, Flex, Segmented, Tooltip } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/stores/session-store';
import { DATE_PRESETS, presetOf, presetRange, type DatePreset, type DayRange } from './date-presets';

/** The reporting time zone the session gives (server's REPORT_TIMEZONE). */
export function useReportTimezone(): string {
  return useSession((s) => s.userInfo?.report_timezone) ?? 'Asia/Shanghai';
}

/** PRODUCT.md's presets for an antd RangePicker (`presets`), in the reporting time zone. */
export function useRangePresets(now?: Date): { label: string; value: [Dayjs, Dayjs] }[] {
  const { t: tc } = useTranslation();
  const zone = useReportTimezone();
  return DATE_PRESETS.map((p) => {
    const [from, to] = presetRange(p, zone, now);
    return { label: tc(`datePresets.${p}`), value: [dayjs(from), dayjs(to)] };
  });
}

interface Props {
  value?: DayRange;
  onChange?: (next: DayRange | undefined) => void;
  /** Offer no "all time" (reports always have a range). */
  required?: boolean;
  /** The clock, for tests. */
  now?: Date;
}

/**
 * A day range with PRODUCT.md's presets (today, yesterday, last 7 / 30 days, this month) and a
 * custom range, all computed in the reporting time zone. A form control: put it in a
 * Form.Item of a FilterBar and map the tuple to the list's `date_from` / `date_to`.
 */
export function DateRangeField({ value, onChange, required, now }: Props) {
  const { t: tc } = useTranslation();
  const zone = useReportTimezone();
  const preset = presetOf(value, zone, now);
  const options: { value: DatePreset | 'custom'; label: string }[] = [...DATE_PRESETS.map((p) => ({ value: p, label: tc(`datePresets.${p}`) })), { value: 'custom' as const, label: tc('datePresets.custom') }];
  return (
    <Flex gap={8} align="center" wrap>
      <Segmented<DatePreset | 'custom'>
        size="small"
        value={preset ?? (value ? 'custom' : undefined)}
        options={options}
        onChange={(p) => {
          if (p !== 'custom') onChange?.(presetRange(p, zone, now));
        }}
      />
      <Tooltip title={tc('datePresets.zone', { zone })}>
        <DatePicker.RangePicker
          aria-label={tc('datePresets.range')}
          allowClear={!required}
          value={value ? [dayjs(value[0]), dayjs(value[1])] : null}
          onChange={(r) => onChange?.(r?.[0] && r[1] ? [r[0].format('YYYY-MM-DD'), r[1].format('YYYY-MM-DD')] : undefined)}
        />
      </Tooltip>
    </Flex>
  );
}
