import { describe, expect, it } from 'vitest';
import { bilingual, both, errorMessages, formatMessage, joinBoth, perLang, textIn, type ErrorKey } from './messages.ts';

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogue', () => {
  it('names the same placeholders in both languages of every message', () => {
    const mismatched = (Object.keys(errorMessages) as ErrorKey[]).filter((key) => placeholders(errorMessages[key].zh).join() !== placeholders(errorMessages[key].en).join());
    expect(mismatched).toEqual([]);
  });
});

describe('bilingual texts', () => {
  it('formats a message in both languages, a Bilingual parameter in each one’s language', () => {
    expect(both('JOB_TOKENS_CHECKED', { valid: 3, expiring: 1, invalid: 0 })).toEqual({ zh: '有效 3，即将过期 1，失效 0', en: 'Valid 3, expiring 1, invalid 0' });
    const reason = both('TOKEN_UNREADABLE');
    expect(formatMessage('PERSONAL_ACCOUNT_SYNC_AUTH', 'en', { name: 'Ann', reason })).toBe(
      'The token of the personal account "Ann" no longer works; the account is marked invalid and its sync stopped: The stored token cannot be decrypted (was the encryption key changed?). Connect the account again.',
    );
    expect(formatMessage('PERSONAL_ACCOUNT_SYNC_AUTH', 'zh', { name: 'Ann', reason })).toBe('个号「Ann」的令牌已失效，已标记为失效并停止同步：无法解密已保存的令牌（加密密钥已更换？），请重新授权');
    // A missing parameter stays visible rather than vanishing.
    expect(formatMessage('JOB_PUSH_DONE', 'zh')).toBe('已完成 {ready} 个');
  });

  it('joins parts with each language’s separator, leaving out empty parts; a plain string is the same in both', () => {
    expect(joinBoth([{ zh: '甲', en: 'A' }, null, '', 'x.mp4', undefined, { zh: '乙', en: 'B' }])).toEqual({ zh: '甲；x.mp4；乙', en: 'A; x.mp4; B' });
    expect(joinBoth([])).toEqual({ zh: '', en: '' });
    expect(bilingual('x.mp4')).toEqual({ zh: 'x.mp4', en: 'x.mp4' });
    expect(textIn({ zh: '甲', en: 'A' }, 'en')).toBe('A');
    expect(textIn('x.mp4', 'en')).toBe('x.mp4');
    expect(perLang((lang) => `[1/2] Ann · ${textIn(both('JOB_SYNC_RESUMING'), lang)}`)).toEqual({ zh: '[1/2] Ann · 从断点继续', en: '[1/2] Ann · Continuing where it stopped' });
  });
});
