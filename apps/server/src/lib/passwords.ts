import { createHash, randomInt } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';

// argon2id with the library's defaults (~15 ms per hash here): slow for guessing, fast enough for logins.
// 2 = Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const options: Options = { algorithm: 2 as NonNullable<Options['algorithm']> };

/** Hashes what the client sends (the MD5 hex of the password), never the MD5 alone. */
export function hashPassword(md5hex: string): Promise<string> {
  return hash(md5hex, options);
}

export async function verifyPassword(stored: string, md5hex: string): Promise<boolean> {
  try {
    return await verify(stored, md5hex);
  } catch {
    return false;
  }
}

/** A hash of a random value: verifying against it costs the same as against a real one. */
export const dummyHashPromise = hashPassword(createHash('md5').update(String(Math.random())).digest('hex'));

export function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

const LOWER = 'abcdefghjkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKMNPQRSTUVWXYZ';
const DIGITS = '23456789';

/** A 12-character random password without look-alike characters (0/O, 1/l/I), easy to read out. */
export function generatePassword(length = 12): string {
  const all = LOWER + UPPER + DIGITS;
  const chars = [LOWER, UPPER, DIGITS].map((set) => set[randomInt(set.length)]!);
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
