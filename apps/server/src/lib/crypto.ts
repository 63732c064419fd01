import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * Secrets at rest (access tokens, page tokens, webhook secrets): AES-256-GCM with a random
 * 96-bit IV per value. A stored value reads `v1.<key id>.<base64url(iv | tag | ciphertext)>`; the
 * key id (8 hex of the key's SHA-256) lets a server holding several keys pick the right one, so
 * setting TOKEN_ENCRYPTION_KEY later does not orphan what the generated key encrypted.
 */

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';
/** app_settings key of the key generated at first start when TOKEN_ENCRYPTION_KEY is unset. */
export const GENERATED_KEY_SETTING = 'token_encryption_key';

/** Parses a 32-byte key written as base64 (standard or url-safe) or 64 hex digits; throws otherwise. */
export function parseEncryptionKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64') : null;
  if (!key || key.length !== 32) throw new Error('must be 32 bytes written as base64 (44 characters) or hex (64 digits); generate one with: openssl rand -base64 32');
  return key;
}

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** Encrypts with one key; pure, for the box below and for tests. */
export function encryptWith(key: Buffer, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}.${keyId(key)}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** Why a stored secret could not be read: no key of this server made it, or it was altered. */
export class SecretUnreadableError extends Error {
  constructor(reason: string) {
    super(`stored secret cannot be decrypted: ${reason}`);
    this.name = 'SecretUnreadableError';
  }
}

function decryptWith(keys: ReadonlyMap<string, Buffer>, stored: string): string {
  const [version, kid, payload] = stored.split('.');
  if (version !== VERSION || !kid || !payload) throw new SecretUnreadableError('unknown format');
  const key = keys.get(kid);
  if (!key) throw new SecretUnreadableError(`made with another key (${kid})`);
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretUnreadableError('truncated');
  const decipher = createDecipheriv(ALGORITHM, key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError('authentication failed');
  }
}

/**
 * The first call reads (or creates) the key in the database: on PGlite's single connection, call
 * it before opening a transaction, never inside one.
 */
export interface SecretBox {
  encrypt(plaintext: string): Promise<string>;
  /** Throws SecretUnreadableError when no key of this server made the value. */
  decrypt(stored: string): Promise<string>;
  /** Resolves the keys now (at start, after migrations), so a misconfiguration shows at once. */
  ready(): Promise<void>;
  /**
   * A 32-byte key for MACs (signed file URLs), derived from the primary key and the purpose, so
   * every process sharing the encryption key signs and verifies alike with no further secret.
   */
  macKey(purpose: string): Promise<Buffer>;
}

export interface SecretBoxDeps {
  db: Db;
  /** TOKEN_ENCRYPTION_KEY, parsed; undefined = use (or create) the key kept in app_settings. */
  configuredKey: Buffer | undefined;
  /** TOKEN_ENCRYPTION_KEY_PREVIOUS: still read (values another process wrote before its restart), never used to encrypt. */
  previousKey?: Buffer | undefined;
  log?: { warn(obj: object, msg?: string): void };
}

/**
 * The server's secret box. The key comes from TOKEN_ENCRYPTION_KEY; without it, one is generated
 * at first use and kept in app_settings, so every process sharing the database shares the key
 * (with a warning: the key then sits beside what it protects, fine for a demo, not production).
 * Keys are resolved lazily because the app is built before migrations run.
 */
export function createSecretBox({ db, configuredKey, previousKey, log }: SecretBoxDeps): SecretBox {
  let loaded: Promise<{ primary: Buffer; keys: Map<string, Buffer> }> | undefined;

  async function storedKey(create: boolean): Promise<Buffer | undefined> {
    const read = async () => (await db.selectFrom('app_settings').select('value').where('key', '=', GENERATED_KEY_SETTING).executeTakeFirst())?.value;
    let value = await read();
    if (!value && create) {
      // Several processes may start together: the first insert wins, everyone reads the winner.
      await db
        .insertInto('app_settings')
        .values({ key: GENERATED_KEY_SETTING, value: randomBytes(32).toString('base64') })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      value = await read();
    }
    return value ? parseEncryptionKey(value) : undefined;
  }

  function load() {
    loaded ??= (async () => {
      const generated = await storedKey(!configuredKey);
      const primary = configuredKey ?? generated!;
      if (!configuredKey) {
        log?.warn({ setting: GENERATED_KEY_SETTING }, 'TOKEN_ENCRYPTION_KEY is not set: tokens are encrypted with a key generated into the database. Set TOKEN_ENCRYPTION_KEY in production.');
      }
      const keys = new Map<string, Buffer>([[keyId(primary), primary]]);
      // A generated key that preceded TOKEN_ENCRYPTION_KEY still reads what it encrypted.
      if (generated && !keys.has(keyId(generated))) keys.set(keyId(generated), generated);
      if (previousKey && !keys.has(keyId(previousKey))) keys.set(keyId(previousKey), previousKey);
      return { primary, keys };
    })().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    });
    return loaded;
  }

  return {
    async encrypt(plaintext) {
      return encryptWith((await load()).primary, plaintext);
    },
    async decrypt(stored) {
      return decryptWith((await load()).keys, stored);
    },
    async ready() {
      await load();
    },
    async macKey(purpose) {
      return createHmac('sha256', (await load()).primary).update(`mac:${purpose}`).digest();
    },
  };
}

const shared = new WeakMap<Db, SecretBox>();

/** One box per database, shared by the routes and the jobs of a process (one key lookup, one warning). */
export function secretBoxFor(db: Db, configuredKey: Buffer | undefined, log?: SecretBoxDeps['log'], previousKey?: Buffer): SecretBox {
  let box = shared.get(db);
  if (!box) {
    box = createSecretBox({ db, configuredKey, previousKey, log });
    shared.set(db, box);
  }
  return box;
}

/**
 * Every column holding SecretBox values. Key changes re-encrypt these (prepareSecrets); a new
 * column of sealed secrets is named `*_enc` and listed here (a test holds the two together).
 */
export const SECRET_COLUMNS = [
  { table: 'personal_accounts', column: 'token_enc' },
  { table: 'personal_account_pages', column: 'page_token_enc' },
  { table: 'sites', column: 'webhook_secret_enc' },
  { table: 'sites', column: 'webhook_secret_prev_enc' },
  { table: 'notification_channels', column: 'webhook_url_enc' },
  { table: 'notification_channels', column: 'secret_enc' },
  { table: 'notification_channels', column: 'smtp_password_enc' },
] as const;

/** pg_advisory_xact_lock key of the re-encryption: processes starting together take turns. */
const REENCRYPT_LOCK = 7_240_001;

/**
 * Start-up step (main.ts, after migrations). With TOKEN_ENCRYPTION_KEY set, every secret sealed
 * by another key this server knows (the generated key kept in app_settings, or
 * TOKEN_ENCRYPTION_KEY_PREVIOUS) is re-encrypted under it, and the generated key is deleted, in
 * one transaction under an advisory lock: the key no longer sits beside what it protected.
 * Values no known key made stay as they are (they were already unreadable). Then the box's keys
 * are resolved, so a misconfiguration shows at once.
 */
export async function prepareSecrets(
  db: Db,
  config: { tokenEncryptionKey: Buffer | undefined; tokenEncryptionKeyPrevious?: Buffer | undefined },
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void },
): Promise<void> {
  const primary = config.tokenEncryptionKey;
  if (primary) {
    const primaryId = keyId(primary);
    const outcome = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${REENCRYPT_LOCK})`.execute(trx);
      const generated = (await trx.selectFrom('app_settings').select('value').where('key', '=', GENERATED_KEY_SETTING).executeTakeFirst())?.value;
      const keys = new Map<string, Buffer>();
      for (const key of [generated ? parseEncryptionKey(generated) : undefined, config.tokenEncryptionKeyPrevious]) if (key) keys.set(keyId(key), key);
      let reencrypted = 0;
      let unreadable = 0;
      for (const { table, column } of SECRET_COLUMNS) {
        const rows = await sql<{ v: string }>`
          select ${sql.ref(column)} as v from ${sql.table(table)}
          where ${sql.ref(column)} is not null and ${sql.ref(column)} not like ${`${VERSION}.${primaryId}.%`}`.execute(trx);
        for (const { v } of rows.rows) {
          let plain: string;
          try {
            plain = decryptWith(keys, v);
          } catch {
            unreadable++;
            continue;
          }
          // Ciphertexts are unique (random IVs): the old value itself says which row to change.
          await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${encryptWith(primary, plain)} where ${sql.ref(column)} = ${v}`.execute(trx);
          reencrypted++;
        }
      }
      if (generated) await trx.deleteFrom('app_settings').where('key', '=', GENERATED_KEY_SETTING).execute();
      return { reencrypted, unreadable, deletedGenerated: Boolean(generated) };
    });
    if (outcome.reencrypted || outcome.deletedGenerated) {
      log?.info(
        { reencrypted: outcome.reencrypted, keyId: primaryId },
        outcome.deletedGenerated
          ? 'secrets re-encrypted under TOKEN_ENCRYPTION_KEY; the generated key was deleted from the database'
          : 'secrets re-encrypted under TOKEN_ENCRYPTION_KEY',
      );
    }
    if (outcome.unreadable) log?.warn({ unreadable: outcome.unreadable }, 'stored secrets made with a key this server does not know cannot be decrypted; they were left as they are (reconnect those accounts)');
  }
  await secretBoxFor(db, primary, log, config.tokenEncryptionKeyPrevious).ready();
}
