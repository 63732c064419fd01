import dayjs from 'dayjs';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import '@/locales/cron-namespace';
import { describeCron, formatDuration, type CronExplanation } from './describe-cron';

/** Explains schedules in the interface language; null for an expression the server refuses. */
export function useExplainCron() {
  const { t, i18n } = useTranslation('cron');
  const { language } = i18n;
  return useCallback((expr: string): CronExplanation | null => describeCron(expr, t, language, dayjs().utcOffset()), [t, language]);
}

/** Formats run durations in the interface language. */
export function useFormatDuration() {
  const { t } = useTranslation('cron');
  return useCallback((ms: number) => formatDuration(ms, t), [t]);
}
