import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';

describe('job settings in the environment', () => {
  it('runs jobs by default, two at a time', () => {
    expect(loadConfig({}).jobs).toEqual({ enabled: true, concurrency: 2 });
    expect(loadConfig({ JOBS_ENABLED: '' }).jobs.enabled).toBe(true);
  });

  it('reads JOBS_ENABLED as 1/0/true/false and refuses anything else', () => {
    for (const [v, want] of [['0', false], ['false', false], ['FALSE', false], ['1', true], ['true', true]] as const) {
      expect(loadConfig({ JOBS_ENABLED: v }).jobs.enabled, v).toBe(want);
    }
    expect(() => loadConfig({ JOBS_ENABLED: 'no' })).toThrow(/JOBS_ENABLED/);
  });

  it('bounds JOBS_CONCURRENCY', () => {
    expect(loadConfig({ JOBS_CONCURRENCY: '5' }).jobs.concurrency).toBe(5);
    expect(() => loadConfig({ JOBS_CONCURRENCY: '0' })).toThrow(/JOBS_CONCURRENCY/);
    expect(() => loadConfig({ JOBS_CONCURRENCY: 'many' })).toThrow(/JOBS_CONCURRENCY/);
  });
});
