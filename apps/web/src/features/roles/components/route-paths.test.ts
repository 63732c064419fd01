import { describe, expect, it } from 'vitest';
import { LEAF_PATHS, onlyLeaves, toLeafPaths, toStoredPaths } from './route-paths';

describe('role paths', () => {
  it('reads a role as exactly the pages it stores: a group path alone ticks nothing, unknown paths drop', () => {
    expect(toLeafPaths(['/sys', '/index', '/nope'])).toEqual(['/index']);
    expect(toLeafPaths(['/advertising', '/advertising/user'])).toEqual(['/advertising/user']);
  });

  it('keeps only pages, in route-table order, when reading checked tree keys', () => {
    expect(onlyLeaves(['/sys/role', '/sys', '/index'])).toEqual(['/index', '/sys/role']);
    expect(LEAF_PATHS).toContain('/advertising/close-log');
    expect(LEAF_PATHS).not.toContain('/advertising');
    expect(LEAF_PATHS.some((p) => p.startsWith('/admin'))).toBe(false);
  });

  it('stores each checked page with its groups, a whole group as the group and all its pages', () => {
    expect(toStoredPaths(['/sys/role', '/index'])).toEqual(['/index', '/sys', '/sys/role']);
    expect(toStoredPaths(['/sys/accounts', '/sys/department', '/sys/role'])).toEqual(['/sys', '/sys/accounts', '/sys/department', '/sys/role']);
    // Read back, it ticks the same pages.
    expect(toLeafPaths(toStoredPaths(['/operation/auth', '/auth/pixel']))).toEqual(['/auth/pixel', '/operation/auth']);
  });
});
