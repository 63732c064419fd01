import { ADMIN_PATHS, REGULAR_PATHS } from '@ads/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { pathsFor, useSession } from './session-store';

const info = { id: 3, account: 'amy', name: 'Amy', remark: '', is_leader: 0, platform: 'dj', department_id: null, department_name: null, login_at: null };

describe('session store (SPEC.md §3, §4)', () => {
  beforeEach(() => {
    localStorage.clear();
    useSession.getState().clear();
  });

  it('derives paths from is_admin: 9 admin paths, 1 regular paths, otherwise the server list', () => {
    expect(pathsFor(9, ['/index'])).toEqual(ADMIN_PATHS);
    expect(pathsFor(1, [])).toEqual(REGULAR_PATHS);
    expect(pathsFor(0, ['/sys', '/sys/role'])).toEqual(['/sys', '/sys/role']);
    expect(pathsFor(5, ['/index'])).toEqual(['/index']);
  });

  it('stores token and user info on login and persists them under "user-store"', () => {
    useSession.getState().setLogin({ ...info, is_admin: 1, paths: [], token: 'tok' });
    expect(useSession.getState().token).toBe('tok');
    expect(useSession.getState().userInfo?.paths).toEqual(REGULAR_PATHS);
    const stored = JSON.parse(localStorage.getItem('user-store')!);
    expect(stored.state.token).toBe('tok');
    expect(stored.state.userInfo.account).toBe('amy');
    expect(stored.state).not.toHaveProperty('fresh');
  });

  it('merges fetched user info and keeps the existing token', () => {
    useSession.getState().setLogin({ ...info, is_admin: 0, paths: ['/index'], token: 'keep-me' });
    useSession.getState().setUserInfo({ name: 'Amy Chen', paths: ['/sys', '/sys/role'] });
    const s = useSession.getState();
    expect(s.token).toBe('keep-me');
    expect(s.userInfo).toMatchObject({ name: 'Amy Chen', account: 'amy', paths: ['/sys', '/sys/role'] });
    expect(s.fresh).toBe(true);
  });

  it('defaults is_leader to 0 and platform to dj when the server leaves them out', () => {
    useSession.getState().setUserInfo({ id: 1, account: 'x', name: 'X', is_admin: 0, paths: [] });
    expect(useSession.getState().userInfo).toMatchObject({ is_leader: 0, platform: 'dj' });
  });
});
