/** Passwords of the two accounts the server creates on its first start (set by global-setup). */
export const ADMIN_PASSWORD = 'e2e-Admin-pass-1';
export const MANAGER_PASSWORD = 'e2e-Manager-pass-1';
