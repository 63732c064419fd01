import { describe, expect, it } from 'vitest';
import { jobRegistry } from './registry.ts';

const CJK = /[\u4e00-\u9fff]/;

// The cron screen shows each job's title and description in the reader's language.
describe('job registry', () => {
  it.each(jobRegistry.map((j) => [j.name, j] as const))('%s has a Chinese and an English title and description', (_name, job) => {
    expect(typeof job.description).toBe('object');
    const d = job.description as { zh: string; en: string };
    expect(d.zh).toMatch(CJK);
    expect(d.en.trim()).not.toBe('');
    expect(d.en).not.toMatch(CJK);
    expect(job.title.zh).toMatch(CJK);
    expect(job.title.en).not.toMatch(CJK);
  });
});
