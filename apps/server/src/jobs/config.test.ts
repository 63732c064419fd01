import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';

describe('job settings in the environment', () => {
  it('runs jobs by default, four at a time, beating every 5 s', () => {
    expect(loadConfig({}).jobs).toEqual({ enabled: true, concurrency: 4, heartbeatMs: 5000 });
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

  it('bounds JOBS_HEARTBEAT_MS', () => {
    expect(loadConfig({ JOBS_HEARTBEAT_MS: '200' }).jobs.heartbeatMs).toBe(200);
    expect(() => loadConfig({ JOBS_HEARTBEAT_MS: '10' })).toThrow(/JOBS_HEARTBEAT_MS/);
    expect(() => loadConfig({ JOBS_HEARTBEAT_MS: '600000' })).toThrow(/JOBS_HEARTBEAT_MS/);
  });
});
