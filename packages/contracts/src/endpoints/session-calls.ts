/**
 * Path and method of the session calls, without their schemas: the endpoint table's entries are
 * made from these (endpoints/sys.ts), and the web's first screens (login, start-up) and its shell
 * (the header resets one's own password) call through them so that loading them does not load
 * zod and every schema.
 */
export const SESSION_CALLS = {
  login: { path: '/login', method: 'POST' },
  logout: { path: '/logout', method: 'POST' },
  get_user_info: { path: '/sys-users/get_user_info', method: 'GET' },
  reset_passwd: { path: '/sys-users/reset_passwd', method: 'POST' },
} as const;
