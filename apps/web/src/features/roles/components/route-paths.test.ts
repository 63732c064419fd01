import { describe, expect, it } from 'vitest';
import { LEAF_PATHS, onlyLeaves, toLeafPaths } from './route-paths';

describe('role paths', () => {
  it('expands a granted group into its pages and drops unknown paths', () => {
    expect(toLeafPaths(['/sys', '/index', '/nope'])).toEqual(['/index', '/sys/accounts', '/sys/department', '/sys/role']);
  });

  it('keeps only pages, in route-table order, when saving checked tree keys', () => {
    expect(onlyLeaves(['/sys/role', '/sys', '/index'])).toEqual(['/index', '/sys/role']);
    expect(LEAF_PATHS).toContain('/advertising/close-log');
    expect(LEAF_PATHS).not.toContain('/advertising');
    expect(LEAF_PATHS.some((p) => p.startsWith('/admin'))).toBe(false);
  });
});
