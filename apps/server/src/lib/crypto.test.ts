import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { freshDatabase } from '../test/build-test-app.ts';
import { createSecretBox, encryptWith, GENERATED_KEY_SETTING, parseEncryptionKey, SecretUnreadableError } from './crypto.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

describe('parseEncryptionKey', () => {
  it('takes 32 bytes as base64, url-safe base64 or hex, and refuses anything else', () => {
    const key = randomBytes(32);
    expect(parseEncryptionKey(key.toString('base64'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('base64url'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('hex'))).toEqual(key);
    expect(() => parseEncryptionKey(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => parseEncryptionKey('not a key')).toThrow(/openssl rand -base64 32/);
  });

  it('is checked when the configuration loads', () => {
    expect(() => loadConfig({ TOKEN_ENCRYPTION_KEY: 'short' })).toThrow(/TOKEN_ENCRYPTION_KEY: must be 32 bytes/);
    expect(loadConfig({ TOKEN_ENCRYPTION_KEY: 'a'.repeat(64) }).tokenEncryptionKey).toHaveLength(32);
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://ads.example.com/' }).publicUrl).toBe('https://ads.example.com');
  });
});

describe('the secret box', () => {
  it('generates one key into app_settings at first use, shared by every box on the database, with a warning', async () => {
    const warnings: string[] = [];
    const log = { warn: (_o: object, msg?: string) => void warnings.push(msg ?? '') };
    const a = createSecretBox({ db: database.db, configuredKey: undefined, log });
    const b = createSecretBox({ db: database.db, configuredKey: undefined, log });
    const [sealedA, sealedB] = await Promise.all([a.encrypt('EAAB-token-a'), b.encrypt('EAAB-token-b')]);
    expect(await b.decrypt(sealedA)).toBe('EAAB-token-a');
    expect(await a.decrypt(sealedB)).toBe('EAAB-token-b');
    const rows = await database.db.selectFrom('app_settings').selectAll().where('key', '=', GENERATED_KEY_SETTING).execute();
    expect(rows).toHaveLength(1);
    expect(warnings[0]).toMatch(/Set TOKEN_ENCRYPTION_KEY in production/);
  });

  it('never stores the plaintext and uses a fresh IV each time', async () => {
    const box = createSecretBox({ db: database.db, configuredKey: randomBytes(32) });
    const one = await box.encrypt('same secret');
    const two = await box.encrypt('same secret');
    expect(one).not.toBe(two);
    expect(one).not.toContain('same secret');
    expect(one).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
  });

  it('with TOKEN_ENCRYPTION_KEY set later, still reads what the generated key encrypted, and encrypts with the new key', async () => {
    const generated = createSecretBox({ db: database.db, configuredKey: undefined });
    const old = await generated.encrypt('old token');
    const configured = randomBytes(32);
    const box = createSecretBox({ db: database.db, configuredKey: configured });
    expect(await box.decrypt(old)).toBe('old token');
    const fresh = await box.encrypt('new token');
    expect(fresh.split('.')[1]).not.toBe(old.split('.')[1]);
    expect(await createSecretBox({ db: database.db, configuredKey: configured }).decrypt(fresh)).toBe('new token');
  });

  it('refuses values made with an unknown key or altered, as SecretUnreadableError', async () => {
    const box = createSecretBox({ db: database.db, configuredKey: randomBytes(32) });
    await expect(box.decrypt(encryptWith(randomBytes(32), 'x'))).rejects.toBeInstanceOf(SecretUnreadableError);
    const sealed = await box.encrypt('payload');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA');
    await expect(box.decrypt(tampered)).rejects.toThrow(/authentication failed|truncated/);
    await expect(box.decrypt('plain text')).rejects.toThrow(/unknown format/);
  });
});
