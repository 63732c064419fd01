/**
 * Path and method of the session calls, without their schemas: the endpoint table's session
 * entries are made from these (endpoints/sys.ts), and the web's first screens (login, start-up)
 * call through them so that loading them does not load zod and every schema.
 */
export const SESSION_CALLS = {
  login: { path: '/login', method: 'POST' },
  logout: { path: '/logout', method: 'POST' },
  get_user_info: { path: '/sys-users/get_user_info', method: 'GET' },
} as const;
