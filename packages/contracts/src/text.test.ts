import { describe, expect, it } from 'vitest';
import { issueMessage } from './messages.ts';
import { daySchema, hasBadChars, httpUrl, instantSchema, text } from './text.ts';

describe('shared text schemas', () => {
  it('text refuses NUL and lone surrogates, keeps paired ones (emoji), and chains as a string', () => {
    const name = text().trim().min(1).max(5);
    expect(name.parse('  ab ')).toBe('ab');
    expect(name.safeParse('a\u0000').success).toBe(false);
    expect(name.safeParse('a\ud800').success).toBe(false);
    expect(name.safeParse('\udc00a').success).toBe(false);
    expect(name.parse('a😀')).toBe('a😀');
    expect(hasBadChars('ok 中文 😀')).toBe(false);
    const issue = name.safeParse('x\u0000').error!.issues[0]!;
    expect(issueMessage(issue, 'en')).toBe('Must not contain NUL or invalid Unicode characters');
  });

  it('days and instants must exist', () => {
    expect(daySchema.safeParse('2024-02-29').success).toBe(true);
    for (const bad of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-1-01', '2026-04-31']) expect(daySchema.safeParse(bad).success, bad).toBe(false);
    expect(issueMessage(daySchema.safeParse('2026-02-30').error!.issues[0]!, 'zh')).toBe('应为存在的日期 YYYY-MM-DD');
    expect(instantSchema.safeParse('2026-03-01T08:00:00+08:00').success).toBe(true);
    for (const bad of ['2026-02-30T08:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01T08:60:00Z', '2026-03-01T08:00:00']) expect(instantSchema.safeParse(bad).success, bad).toBe(false);
  });

  it('links are http(s) only', () => {
    const url = httpUrl(100);
    expect(url.parse(' https://shop.example.com/p/1?x=1 ')).toBe('https://shop.example.com/p/1?x=1');
    expect(url.parse('http://127.0.0.1:8080/a.jpg')).toBe('http://127.0.0.1:8080/a.jpg');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:image/png;base64,AAAA', 'file:///etc/passwd', 'ftp://x.example.com/a', '//x.example.com/a', 'not a link', `https://x.example.com/${'a'.repeat(100)}`]) {
      expect(url.safeParse(bad).success, bad).toBe(false);
    }
    expect(issueMessage(url.safeParse('javascript:alert(1)').error!.issues[0]!, 'en')).toBe('Must be a full link starting with http:// or https://');
  });
});
