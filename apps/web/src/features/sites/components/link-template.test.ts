import { describe, expect, it } from 'vitest';
import { analyzeTemplate, linkHost } from './link-template';

describe('link template preview', () => {
  it('expands every known placeholder with its sample value', () => {
    const a = analyzeTemplate('https://d.example.com/play?id={drama_id}&ep={episode}&c={campaign_id}');
    expect(a.expanded).toBe('https://d.example.com/play?id=10086&ep=1&c=120211000000000001');
    expect(a.unknown).toEqual([]);
    expect(a.used).toEqual(['{drama_id}', '{episode}', '{campaign_id}']);
  });

  it('flags unknown placeholders, Meta macros included, once each and leaves them as typed', () => {
    const a = analyzeTemplate('https://x.com/?a={dramaid}&b={{campaign.id}}&c={dramaid}');
    expect(a.unknown).toEqual(['{dramaid}', '{campaign.id}']);
    expect(a.expanded).toBe('https://x.com/?a={dramaid}&b={{campaign.id}}&c={dramaid}');
    expect(a.parts.filter((p) => p.kind === 'unknown')).toHaveLength(3);
  });

  it('reads the host of a link, or nothing while it is not one', () => {
    expect(linkHost('https://Drama.Example.com/x?id={drama_id}')).toBe('drama.example.com');
    expect(linkHost('drama.example.com')).toBe('');
  });
});
