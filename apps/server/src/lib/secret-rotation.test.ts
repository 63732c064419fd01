import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { freshDatabase } from '../test/build-test-app.ts';
import { createPage, createPersonalAccount, createSite } from '../test/factories.ts';
import { createSecretBox, GENERATED_KEY_SETTING, prepareSecrets, SECRET_COLUMNS, type SecretBox } from './crypto.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());
// Each test starts as a first start would: no secrets, no generated key.
beforeEach(async () => {
  await database.db.deleteFrom('personal_account_pages').execute();
  await database.db.deleteFrom('personal_accounts').execute();
  await database.db.deleteFrom('pages').execute();
  await database.db.deleteFrom('sites').execute();
  await database.db.deleteFrom('app_settings').where('key', '=', GENERATED_KEY_SETTING).execute();
});

const kidOf = (stored: string) => stored.split('.')[1];

/** One secret of every kind, sealed by `box`: a personal account's token, a page token, a site's webhook secret. */
async function storeSecrets(box: SecretBox) {
  const db = database.db;
  const account = await createPersonalAccount(db);
  await db.updateTable('personal_accounts').set({ token_enc: await box.encrypt('EAAB-user-token') }).where('id', '=', account.id).execute();
  const page = await createPage(db);
  await db.insertInto('personal_account_pages').values({ personal_account_id: account.id, page_id: page.id, tasks: ['ADVERTISE'], page_token_enc: await box.encrypt('EAAB-page-token') }).execute();
  const site = await createSite(db);
  await db.updateTable('sites').set({ webhook_secret_enc: await box.encrypt('whsec-1') }).where('id', '=', site.id).execute();
}

/** Every stored ciphertext of every secret column. */
async function allCiphertexts(): Promise<string[]> {
  const out: string[] = [];
  for (const { table, column } of SECRET_COLUMNS) {
    const rows = await sql<{ v: string }>`select ${sql.ref(column)} as v from ${sql.table(table)} where ${sql.ref(column)} is not null`.execute(database.db);
    out.push(...rows.rows.map((r) => r.v));
  }
  return out;
}

async function readAll(box: SecretBox) {
  return (await Promise.all((await allCiphertexts()).map((c) => box.decrypt(c)))).sort();
}

const logs = () => {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const log = {
    info: (obj: object, msg?: string) => void lines.push({ level: 'info', msg: msg ?? '', obj }),
    warn: (obj: object, msg?: string) => void lines.push({ level: 'warn', msg: msg ?? '', obj }),
  };
  return { lines, log };
};

describe('TOKEN_ENCRYPTION_KEY set after a generated key was used', () => {
  it('re-encrypts every secret under the configured key at start and deletes the generated key', async () => {
    // First start: no key configured, one is generated into the database.
    await storeSecrets(createSecretBox({ db: database.db, configuredKey: undefined }));
    const generatedKid = kidOf((await allCiphertexts())[0]!);
    expect(await database.db.selectFrom('app_settings').select('key').where('key', '=', GENERATED_KEY_SETTING).executeTakeFirst()).toBeDefined();

    // Restart with the key configured.
    const configured = randomBytes(32);
    const { lines, log } = logs();
    await prepareSecrets(database.db, { tokenEncryptionKey: configured }, log);

    expect(await database.db.selectFrom('app_settings').select('key').where('key', '=', GENERATED_KEY_SETTING).executeTakeFirst()).toBeUndefined();
    const stored = await allCiphertexts();
    expect(stored).toHaveLength(3);
    expect(stored.filter((c) => kidOf(c) === generatedKid)).toEqual([]);
    // A box that knows only the configured key reads everything.
    expect(await readAll(createSecretBox({ db: database.db, configuredKey: configured }))).toEqual(['EAAB-page-token', 'EAAB-user-token', 'whsec-1']);
    expect(lines).toContainEqual({ level: 'info', msg: expect.stringMatching(/re-encrypted.*generated key.*deleted/), obj: expect.objectContaining({ reencrypted: 3 }) });

    // The next start has nothing to do.
    const again = logs();
    await prepareSecrets(database.db, { tokenEncryptionKey: configured }, again.log);
    expect(again.lines.filter((l) => /re-encrypted/.test(l.msg))).toEqual([]);
    expect(await allCiphertexts()).toEqual(stored);
  });

  it('is done once when several processes start together', async () => {
    await storeSecrets(createSecretBox({ db: database.db, configuredKey: undefined }));
    const configured = randomBytes(32);
    await Promise.all([1, 2, 3].map(() => prepareSecrets(database.db, { tokenEncryptionKey: configured })));
    expect(await readAll(createSecretBox({ db: database.db, configuredKey: configured }))).toEqual(['EAAB-page-token', 'EAAB-user-token', 'whsec-1']);
    expect(await database.db.selectFrom('app_settings').select('key').where('key', '=', GENERATED_KEY_SETTING).executeTakeFirst()).toBeUndefined();
  });

  it('moves secrets from TOKEN_ENCRYPTION_KEY_PREVIOUS to a new TOKEN_ENCRYPTION_KEY', async () => {
    const first = randomBytes(32);
    await storeSecrets(createSecretBox({ db: database.db, configuredKey: first }));
    const second = randomBytes(32);
    await prepareSecrets(database.db, { tokenEncryptionKey: second, tokenEncryptionKeyPrevious: first });
    expect(new Set((await allCiphertexts()).map(kidOf)).size).toBe(1);
    expect(await readAll(createSecretBox({ db: database.db, configuredKey: second }))).toEqual(['EAAB-page-token', 'EAAB-user-token', 'whsec-1']);
  });

  it('leaves a value no known key made as it was, and says so', async () => {
    await storeSecrets(createSecretBox({ db: database.db, configuredKey: undefined }));
    const stranger = await createSecretBox({ db: database.db, configuredKey: randomBytes(32) }).encrypt('from elsewhere');
    await database.db.updateTable('sites').set({ webhook_secret_enc: stranger }).execute();
    const configured = randomBytes(32);
    const { lines, log } = logs();
    await prepareSecrets(database.db, { tokenEncryptionKey: configured }, log);
    expect(await database.db.selectFrom('sites').select('webhook_secret_enc').executeTakeFirstOrThrow()).toEqual({ webhook_secret_enc: stranger });
    expect(lines).toContainEqual({ level: 'warn', msg: expect.stringMatching(/cannot be decrypted/), obj: expect.objectContaining({ unreadable: 1 }) });
  });
});

it('SECRET_COLUMNS lists every column holding sealed secrets (every *_enc column of the schema)', async () => {
  const rows = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and column_name like '%\\_enc' order by table_name, column_name`.execute(database.db);
  expect(rows.rows.map((r) => `${r.table_name}.${r.column_name}`)).toEqual(SECRET_COLUMNS.map((c) => `${c.table}.${c.column}`).sort());
});

it('TOKEN_ENCRYPTION_KEY_PREVIOUS is read as a key, and only beside TOKEN_ENCRYPTION_KEY', () => {
  const a = randomBytes(32);
  const b = randomBytes(32);
  const config = loadConfig({ TOKEN_ENCRYPTION_KEY: a.toString('base64'), TOKEN_ENCRYPTION_KEY_PREVIOUS: b.toString('hex') });
  expect(config.tokenEncryptionKey).toEqual(a);
  expect(config.tokenEncryptionKeyPrevious).toEqual(b);
  expect(() => loadConfig({ TOKEN_ENCRYPTION_KEY_PREVIOUS: b.toString('hex') })).toThrow(/TOKEN_ENCRYPTION_KEY_PREVIOUS: only with TOKEN_ENCRYPTION_KEY/);
  expect(() => loadConfig({ TOKEN_ENCRYPTION_KEY: a.toString('hex'), TOKEN_ENCRYPTION_KEY_PREVIOUS: 'short' })).toThrow(/TOKEN_ENCRYPTION_KEY_PREVIOUS: must be 32 bytes/);
});
