import { listUsersBodySchema } from '@ads/contracts';
import { describe, expect, it } from 'vitest';
import { parseSearchParams, toSearchParams } from './use-list-query';

describe('URL list state', () => {
  it('parses numbers and enums from the query string with the schema defaults', () => {
    const q = parseSearchParams(listUsersBodySchema, new URLSearchParams('page=3&department_id=7&status=disabled&account=ali'));
    expect(q).toEqual({ page: 3, page_size: 20, department_id: 7, status: 'disabled', account: 'ali' });
  });

  it('drops only the params a stale or hand-edited link gets wrong', () => {
    const q = parseSearchParams(listUsersBodySchema, new URLSearchParams('page=-1&status=gone&name=Bo&sort_field=password'));
    expect(q).toEqual({ page: 1, page_size: 20, name: 'Bo' });
  });

  it('writes only what differs from the defaults and is not empty', () => {
    const params = toSearchParams({ page: 1, page_size: 50, account: '', name: 'Bo', role_id: undefined, status: 'enabled' }, { page: 1, page_size: 20 });
    expect(params.toString()).toBe('page_size=50&name=Bo&status=enabled');
  });
});
