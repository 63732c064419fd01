/**
 * Bounds and patterns of the contracts' text fields, without zod: the schemas check with them and
 * the web's forms say the same thing before anything is sent.
 */

/** Lower-case MD5 hex (passwords as SPEC.md §5 sends them, file hashes). */
export const MD5_HEX_PATTERN = /^[0-9a-f]{32}$/;

/** Login account names (accountNameSchema), on trimmed text. */
export const ACCOUNT_PATTERN = /^[A-Za-z0-9_.@-]+$/;
export const ACCOUNT_MIN = 2;
export const ACCOUNT_MAX = 32;
/** Names of people, departments and roles. */
export const NAME_MAX = 32;
/** Every remark field. */
export const REMARK_MAX = 200;

/** Sites: a display name, a bare domain and an https link template. */
export const SITE_NAME_MAX = 64;
export const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const LINK_TEMPLATE_PATTERN = /^https:\/\/\S+$/;
export const LINK_TEMPLATE_MIN = 8;
export const LINK_TEMPLATE_MAX = 1000;

/** Catalog imports take these files. */
export const CATALOG_FILE_PATTERN = /\.(csv|xlsx)$/i;
