import { md5 } from 'js-md5';

/** The login and create-account payloads carry the lower-case MD5 hex of a password (SPEC.md §5). */
export const md5Hex = (text: string): string => md5(text);
