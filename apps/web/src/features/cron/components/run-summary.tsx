import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatRelative } from '@/lib/format';
import '@/locales/cron-namespace';

type Summary = Record<string, unknown> | null | undefined;

/**
 * A run's summary figures as phrases ("2 videos in processing checked", "检查了处理中的视频 2 个"):
 * a job's own wording first, then the wording shared by jobs, and only for a key nobody has
 * worded yet "key: value". Lists count their entries; zeros are left out unless all are zero.
 */
export function describeRunSummary(t: TFunction<'cron'>, exists: (key: string) => boolean, jobName: string, summary: Summary): string[] {
  if (!summary) return [];
  const entries: { key: string; count?: number; text?: string }[] = [];
  for (const [key, value] of Object.entries(summary)) {
    if (typeof value === 'number') entries.push({ key, count: value });
    else if (Array.isArray(value)) entries.push({ key, count: value.length });
    else if (key === 'resume_at' && typeof value === 'string') entries.push({ key, text: t('runSummary.resume_at', { time: formatRelative(value) }) });
    // Ids and other references (personal_account_id, nested objects) are details, not results.
  }
  const counted = entries.filter((e) => e.count !== undefined);
  const shown = entries.filter((e) => e.count === undefined || e.count !== 0);
  const list = shown.some((e) => e.count !== undefined) || !counted.length ? shown : [counted[0]!, ...shown];
  return list.map(({ key, count, text }) => {
    if (text) return text;
    // The job-specific key sits under a hyphenated job name, which i18next's key separator leaves intact.
    const own = `runSummary.jobs.${jobName}.${key}_other`;
    const shared = `runSummary.${key}_other`;
    if (exists(own)) return t(`runSummary.jobs.${jobName}.${key}` as 'runSummary.checked', { count });
    if (exists(shared)) return t(`runSummary.${key}` as 'runSummary.checked', { count });
    return `${key.replace(/_/g, ' ')}: ${count}`;
  });
}

/** A run's summary in plain words, in the reader's language. */
export function RunSummary({ jobName, summary }: { jobName: string; summary: Summary }) {
  const { t, i18n } = useTranslation('cron');
  const phrases = describeRunSummary(t, (key) => i18n.exists(key, { ns: 'cron' }), jobName, summary);
  if (!phrases.length) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {phrases.join(t('runSummary.separator'))}
    </Typography.Text>
  );
}
