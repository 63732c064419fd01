import { describe, expect, it } from 'vitest';
import { ADMIN_PATHS, ASSIGNABLE_PATHS } from '../routes.ts';
import { allEndpoints, endpointAllows, endpoints, endpointsByPath } from './index.ts';

describe('the endpoint table', () => {
  it('declares each path once, in the URL style of SPEC.md (kebab-case module, snake_case action)', () => {
    const paths = allEndpoints.map((e) => e.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of paths) expect(p, p).toMatch(/^\/(login|logout|health(\/live)?|[a-z]+(-[a-z]+)*\/[a-z]+(_[a-z]+)*)$/);
    expect(Object.keys(endpointsByPath)).toEqual(paths);
  });

  it('allows only known route paths, and never an empty list', () => {
    for (const e of allEndpoints) {
      if (typeof e.allow === 'string') continue;
      expect(e.allow.length, e.path).toBeGreaterThan(0);
      for (const p of e.allow) expect(ASSIGNABLE_PATHS.has(p) || ADMIN_PATHS.includes(p), `${e.path} allows unknown path ${p}`).toBe(true);
    }
  });

  it('endpointAllows: any one allowed path suffices; user and public calls are open to every session', () => {
    expect(endpointAllows(endpoints.adAccounts.list, ['/material/upload'])).toBe(true);
    expect(endpointAllows(endpoints.adAccounts.export, ['/material/upload'])).toBe(false);
    expect(endpointAllows(endpoints.adAccounts.export, ['/auth/account'])).toBe(true);
    expect(endpointAllows(endpoints.tasks.list, [])).toBe(true);
    expect(endpointAllows(endpoints.session.login, [])).toBe(true);
  });
});
