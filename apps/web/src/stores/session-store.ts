import type { LoginResult, UserInfo } from '@ads/contracts';
import { ADMIN_PATHS, IS_ADMIN_MANAGER, IS_ADMIN_SUPER, REGULAR_PATHS } from '@ads/contracts/core';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** Session user info of SPEC.md §3, with the defaults it names. */
export interface SessionUser extends Omit<UserInfo, 'department_id' | 'department_name'> {
  department_id?: number | null;
  department_name?: string | null;
}

interface SessionState {
  token: string;
  userInfo: SessionUser | null;
  /** True once get_user_info has answered in this page load. */
  fresh: boolean;
  setLogin: (result: LoginResult) => void;
  setUserInfo: (info: Partial<UserInfo>) => void;
  clear: () => void;
}

/**
 * Paths follow is_admin (SPEC.md §4): 9 → every /admin route, 1 → every other route in sort
 * order, anything else → what the server sent.
 */
export function pathsFor(isAdmin: number, serverPaths: readonly string[] = []): string[] {
  if (isAdmin === IS_ADMIN_SUPER) return [...ADMIN_PATHS];
  if (isAdmin === IS_ADMIN_MANAGER) return [...REGULAR_PATHS];
  return [...serverPaths];
}

const emptyUser: SessionUser = {
  id: 0,
  account: '',
  name: '',
  remark: '',
  is_admin: 0,
  is_leader: 0,
  platform: 'dj',
  paths: [],
  login_at: null,
};

function merge(current: SessionUser | null, info: Partial<UserInfo>): SessionUser {
  const next = { ...emptyUser, ...current, ...info } as SessionUser;
  next.paths = pathsFor(next.is_admin, info.paths ?? current?.paths ?? []);
  return next;
}

/** The token and user info, persisted under "user-store" (SPEC.md §3). */
export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      token: '',
      userInfo: null,
      fresh: false,
      setLogin: ({ token, ...info }) => set({ token, userInfo: merge(null, info), fresh: true }),
      // Merges the fetched info into what is stored, keeping the existing token.
      setUserInfo: (info) => set((s) => ({ userInfo: merge(s.userInfo, info), fresh: true })),
      clear: () => set({ token: '', userInfo: null, fresh: false }),
    }),
    { name: 'user-store', version: 1, partialize: (s) => ({ token: s.token, userInfo: s.userInfo }) },
  ),
);
