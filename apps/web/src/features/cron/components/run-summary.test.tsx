import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import { renderScreen } from '@/testing/render';
import { describeRunSummary, RunSummary } from './run-summary';
import '@/locales/cron-namespace';

const words = (lang: 'en' | 'zh-CN', job: string, summary: Record<string, unknown>) => {
  const t = i18n.getFixedT(lang, 'cron');
  return describeRunSummary(t, (key) => i18n.exists(key, { ns: 'cron', lng: lang }), job, summary);
};

describe('run summary', () => {
  it('says what a check of material pushes did, in both languages, with no raw keys', () => {
    const summary = { checked: 2, still_processing: 2, interrupted: 0 };
    expect(words('en', 'check-material-pushes', summary)).toEqual(['2 videos in processing checked', '2 still processing']);
    expect(words('zh-CN', 'check-material-pushes', summary)).toEqual(['检查了处理中的视频 2 个', '仍在处理 2 个']);
  });

  it('uses the singular in English, counts lists, and keeps one figure when all are zero', () => {
    expect(words('en', 'cleanup-material-uploads', { removed: 1 })).toEqual(['1 unfinished upload removed']);
    expect(words('en', 'check-tokens', { checked: 3, valid: 2, expiring: 0, invalid: 1, changed: [{ id: 1 }], errors: [] })).toEqual([
      '3 checked',
      '2 valid tokens',
      '1 invalid token',
      '1 changed status',
    ]);
    expect(words('zh-CN', 'check-material-pushes', { checked: 0 })).toEqual(['检查了处理中的视频 0 个']);
  });

  it('falls back to readable "key: value" only for keys nobody has worded', () => {
    expect(words('en', 'some-new-job', { rows_written: 3 })).toEqual(['rows written: 3']);
  });

  it('renders the phrases joined in the reader\'s language', () => {
    renderScreen(<RunSummary jobName="cleanup-sessions" summary={{ sessions: 12, login_throttle: 0, job_runs: 3 }} />);
    expect(screen.getByText('12 sessions removed, 3 old run records removed')).toBeTruthy();
  });
});
