import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import '@/locales/cron-namespace';
import { checkCron, nextRuns } from './cron-expression';
import { describeCron, formatDuration } from './describe-cron';

const en = i18n.getFixedT('en', 'cron');
const zh = i18n.getFixedT('zh-CN', 'cron');
const say = (expr: string, lang: 'en' | 'zh-CN' = 'en', offset = 0) => describeCron(expr, lang === 'en' ? en : zh, lang, offset);

describe('checkCron', () => {
  it('accepts what the server accepts: lists, ranges, steps, names, 7 as Sunday, ?, L and #', () => {
    for (const expr of [
      '* * * * *',
      '*/15 * * * *',
      '17 3 * * *',
      '30 6 * * 1-5',
      '0 0 1 * *',
      '5/15 * * * *',
      '1,2-5/2 * * * *',
      '0 0 * jan *',
      '0 0 * * MON-FRI',
      '0 0 * * 7',
      '0 0 ? * *',
      '0 0 29 2 *',
      '0 0 L * *',
      '0 0 * * 1#2',
      '0 0 * * 5L',
      '  0   3 * * * ',
    ]) {
      expect(checkCron(expr), expr).toEqual({ status: 'valid' });
    }
  });

  it('wants exactly five fields', () => {
    for (const expr of ['* * * *', '0 * * * * *', '@daily', '']) expect(checkCron(expr), expr).toEqual({ status: 'fieldCount' });
  });

  it('refuses what the server refuses, naming the field to blame', () => {
    expect(checkCron('61 * * * *')).toEqual({ status: 'invalid', field: 'minute' });
    expect(checkCron('*/0 * * * *')).toEqual({ status: 'invalid', field: 'minute' });
    expect(checkCron('5-2 * * * *')).toEqual({ status: 'invalid', field: 'minute' });
    expect(checkCron('? * * * *')).toEqual({ status: 'invalid', field: 'minute' });
    expect(checkCron('x y z a b')).toEqual({ status: 'invalid', field: 'minute' });
    expect(checkCron('0 24 * * *')).toEqual({ status: 'invalid', field: 'hour' });
    expect(checkCron('* * 32 * *')).toEqual({ status: 'invalid', field: 'dom' });
    expect(checkCron('0 0 0 * *')).toEqual({ status: 'invalid', field: 'dom' });
    expect(checkCron('0 0 15W * *')).toEqual({ status: 'invalid', field: 'dom' });
    expect(checkCron('0 0 1 13 *')).toEqual({ status: 'invalid', field: 'month' });
    expect(checkCron('0 0 * foo *')).toEqual({ status: 'invalid', field: 'month' });
    expect(checkCron('0 0 * * 8')).toEqual({ status: 'invalid', field: 'dow' });
    expect(checkCron('0 0 * * 1#6')).toEqual({ status: 'invalid', field: 'dow' });
  });

  it('refuses a day the only chosen month never has, as the server does', () => {
    expect(checkCron('0 0 30 2 *')).toEqual({ status: 'invalid', field: 'dom' });
    expect(checkCron('0 0 31 4 *')).toEqual({ status: 'invalid', field: 'dom' });
  });
});

describe('nextRuns', () => {
  const from = new Date('2026-03-01T10:00:00Z'); // a Sunday
  const iso = (expr: string, n = 2) => nextRuns(expr, from, n).map((d) => d.toISOString());

  it('finds the next times in UTC, strictly after the start', () => {
    expect(iso('*/15 * * * *')).toEqual(['2026-03-01T10:15:00.000Z', '2026-03-01T10:30:00.000Z']);
    expect(iso('17 3 * * *')).toEqual(['2026-03-02T03:17:00.000Z', '2026-03-03T03:17:00.000Z']);
    expect(iso('0 0 * * MON-FRI')).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z']);
    expect(iso('0 0 * jan *')).toEqual(['2027-01-01T00:00:00.000Z', '2027-01-02T00:00:00.000Z']);
    expect(iso('0 0 29 2 *', 1)).toEqual(['2028-02-29T00:00:00.000Z']);
    expect(iso('0 0 L * *')).toEqual(['2026-03-31T00:00:00.000Z', '2026-04-30T00:00:00.000Z']);
    expect(iso(' 0  3 * * * ', 1)).toEqual(['2026-03-02T03:00:00.000Z']);
  });

  it('fires on either day field when both are restricted, as cron does', () => {
    expect(iso('0 0 1 * 1')).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-09T00:00:00.000Z']);
    expect(iso('0 0 1 * 1', 6).at(-1)).toBe('2026-04-01T00:00:00.000Z');
  });

  it('finds nothing for a schedule that never fires or is refused', () => {
    expect(iso('0 0 31 2,4 *')).toEqual([]);
    expect(iso('61 * * * *')).toEqual([]);
    expect(iso('0 * * * * *')).toEqual([]);
  });
});

describe('describeCron', () => {
  it('reads schedules in English with 24-hour times, marking those tied to UTC', () => {
    expect(say('* * * * *')?.text).toBe('Every minute');
    expect(say('*/15 * * * *')?.text).toBe('Every 15 minutes');
    expect(say('0 * * * *')?.text).toBe('Every hour');
    expect(say('17 3 * * *')?.text).toBe('At 03:17 (UTC)');
    expect(say('0 3,15 * * *')?.text).toBe('At 03:00 and 15:00 (UTC)');
    expect(say('0 */2 * * *')?.text).toBe('On the hour, every 2 hours (UTC)');
    expect(say('30 6 * * 1-5')?.text).toBe('At 06:30, Monday through Friday (UTC)');
    expect(say('*/10 * * * 1-5')?.text).toBe('Every 10 minutes, Monday through Friday (UTC)');
    expect(say('0 0 L * *')?.text).toBe('At 00:00, on the last day of the month (UTC)');
  });

  it('reads schedules in Chinese', () => {
    expect(say('*/15 * * * *', 'zh-CN')?.text).toBe('每隔 15 分钟');
    expect(say('17 3 * * *', 'zh-CN')?.text).toBe('在03:17（UTC）');
    expect(say('30 6 * * 1-5', 'zh-CN')?.text).toBe('在06:30, 星期一至星期五（UTC）');
  });

  it('adds the local reading of set times, with the day they fall on when days are restricted', () => {
    expect(say('17 3 * * *', 'zh-CN', 480)?.local).toBe('本地时间 11:17');
    expect(say('0 3,15 * * *', 'en', 480)?.local).toBe('local time 11:00 and 23:00');
    expect(say('0 20 * * 1-5', 'en', 480)?.local).toBe('local time 04:00 (next day)');
    expect(say('0 1 * * 1', 'en', -300)?.local).toBe('local time 20:00 (day before)');
    expect(say('0 1 * * *', 'en', -300)?.local).toBe('local time 20:00');
    expect(say('17 3 * * *', 'en', 0)?.local).toBeUndefined();
    expect(say('*/15 * * * *', 'en', 480)?.local).toBeUndefined();
  });

  it('explains nothing the server refuses', () => {
    expect(say('61 * * * *')).toBeNull();
    expect(say('0 0 30 2 *')).toBeNull();
    expect(say('0 0 * * * *')).toBeNull();
  });
});

describe('formatDuration', () => {
  it('says how long in the largest sensible units', () => {
    expect(formatDuration(850, en)).toBe('850 ms');
    expect(formatDuration(4230, en)).toBe('4.2 s');
    expect(formatDuration(42_600, en)).toBe('43 s');
    expect(formatDuration(185_000, zh)).toBe('3 分 5 秒');
    expect(formatDuration(3_720_000, en)).toBe('1 h 2 min');
  });
});
