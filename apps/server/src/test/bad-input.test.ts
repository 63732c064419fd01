import fs from 'node:fs';
import { errorMessages, flagInput } from '@ads/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../lib/passwords.ts';
import type { ApiRoute } from '../plugins/auth.ts';
import { buildTestApp, testConfig, type TestApp } from './build-test-app.ts';
import { createDepartment, createRole, createUser } from './factories.ts';

/**
 * API.md: "No input, however malformed, produces an HTTP 500, a stack trace or a hang." Every
 * /api route (taken from the app, so new routes are covered) gets malformed bodies from a caller
 * allowed to call it; each answer must be the envelope with HTTP 200, a refusal where the body is
 * clearly invalid, no internals in the message, and the database must not have changed.
 */
// Built while the tests are collected, so each route gets a test of its own name.
const t: TestApp = await buildTestApp();
// HEAD twins of GET routes share their handler and config (no body to check); HEAD routes of their own (tus) are checked.
const routes: ApiRoute[] = t.app.apiRoutes.filter((r) => !(r.method === 'HEAD' && t.app.apiRoutes.some((g) => g.method === 'GET' && g.url === r.url)));
const uploadDir = testConfig().materials.uploadDir;
let manager: Awaited<ReturnType<typeof createUser>>;
let superAdmin: Awaited<ReturnType<typeof createUser>>;
const tokens = new Map<string, string>();

beforeAll(async () => {
  manager = await createUser(t.db, { is_admin: 1 });
  superAdmin = await createUser(t.db, { is_admin: 9 });
  // Some rows in every table, so a stray write or delete shows in the checksums.
  const dept = await createDepartment(t.db);
  const role = await createRole(t.db, { paths: ['/index'] });
  const staff = await createUser(t.db, { department_id: dept.id });
  await t.db.insertInto('user_roles').values({ user_id: staff.id, role_id: role.id }).execute();
  tokens.set('manager', await t.login(manager.account, manager.password));
  tokens.set('super', await t.login(superAdmin.account, superAdmin.password));
});
afterAll(() => t.close());

const isAdminPath = (p: string) => p === '/admin' || p.startsWith('/admin/');
const isLogout = (r: ApiRoute) => r.url === '/api/logout';

/** Who may call the route: nobody for public ones, the super admin for /admin-only ones, else a manager. */
async function tokenFor(r: ApiRoute): Promise<string | undefined> {
  if (r.public) return undefined;
  // Logout ends the session it is called with: give each call its own.
  if (isLogout(r)) return t.login(manager.account, manager.password);
  if (r.paths.length && r.paths.every(isAdminPath)) return tokens.get('super');
  return tokens.get('manager');
}

/**
 * A checksum of every table a call could change. Logout legitimately revokes its session and
 * audits it, so for logout calls the sessions table and 'session.logout' entries are left out.
 */
let tables: string[] | undefined;
/** Every table of the database (the app's and the job engine's), as `name` in public and `schema.name` elsewhere. */
async function allTables(): Promise<string[]> {
  tables ??= (
    await sql<{ table_schema: string; table_name: string }>`
      select table_schema, table_name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
      order by table_schema, table_name`.execute(t.db)
  ).rows.map((r) => (r.table_schema === 'public' ? r.table_name : `${r.table_schema}.${r.table_name}`));
  return tables;
}

/** A digest of every row of every table, so a request that writes anything at all shows. */
async function snapshot(forLogout = false) {
  const except = forLogout ? ['session.logout'] : [''];
  const columns = (await allTables()).map((name) => {
    const table = sql.table(name);
    // Logout ends its own session and audits it; nothing else may change.
    const where = name === 'audit_logs' ? sql`where x.action <> all(${except})` : sql``;
    const digest = name === 'sessions' && forLogout ? sql`''` : sql`(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from ${table} x ${where})`;
    return sql`${digest} as ${sql.ref(name)}`;
  });
  const row = await sql<Record<string, string>>`select ${sql.join(columns)}`.execute(t.db);
  // Unfinished tus uploads live on disk: a malformed request must not leave one behind.
  const state: Record<string, string> = { ...row.rows[0]! };
  state.uploads = fs.existsSync(uploadDir) ? fs.readdirSync(uploadDir).sort().join(',') : '';
  return state;
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

// ---- reading a route's body schema ------------------------------------------------------

type Schema = z.ZodType;
const defType = (s: Schema) => (s as unknown as { _zod: { def: { type: string; innerType?: Schema; shape?: Record<string, Schema> } } })._zod.def;

function unwrap(s: Schema): Schema {
  let cur = s;
  while (['optional', 'nullable', 'default', 'prefault', 'readonly'].includes(defType(cur).type)) cur = defType(cur).innerType!;
  return cur;
}

/** The fields of a route's body, when its body is an object. */
function fieldsOf(r: ApiRoute): Record<string, Schema> {
  if (!r.body) return {};
  const inner = unwrap(r.body as Schema);
  return defType(inner).type === 'object' ? defType(inner).shape! : {};
}

const accepts = (r: ApiRoute, value: unknown) => (r.body ? (r.body as Schema).safeParse(value).success : true);

/** Whether a field may legitimately accept one of ALWAYS_WRONG (see there). */
function acceptsByDesign(schema: Schema, value: unknown): boolean {
  const inner = unwrap(schema);
  if (value === true) return defType(inner).type === 'boolean' || inner === (flagInput as unknown as Schema);
  if (typeof value === 'string') return defType(inner).type === 'string' && ((inner as unknown as { maxLength: number | null }).maxLength ?? 0) >= 100_000;
  return false;
}

// ---- calling and checking -----------------------------------------------------------------

interface Bad {
  name: string;
  payload?: string;
  contentType?: string;
  /** Extra request headers (tus). */
  headers?: Record<string, string>;
  /** The answer must be a refusal (code != 0). */
  mustFail: boolean;
  /** The refusal must name these fields. */
  fields?: string[];
}

const STACK = /\n\s+at |\bat .+:\d+:\d+|\.(ts|js|mjs):\d+|node_modules|TypeError|ReferenceError|SyntaxError|RangeError|Error:/;

/** Sends one bad body; `known` is the database state after the previous call, when nothing ran since. */
async function send(r: ApiRoute, bad: Bad, known?: Snapshot): Promise<Snapshot> {
  const token = await tokenFor(r);
  // Logout logs in first (a fresh session per call), so its state is taken after that login.
  const before = known && !isLogout(r) ? known : await snapshot(isLogout(r));
  const res = await t.app.inject({
    method: r.method as 'GET' | 'POST',
    url: r.url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(bad.contentType ? { 'content-type': bad.contentType } : {}),
      ...bad.headers,
    },
    ...(bad.payload !== undefined ? { payload: bad.payload } : {}),
  });
  const label = `${r.method} ${r.url} — ${bad.name}`;
  if (r.binary) {
    // Protocol and file routes answer HTTP statuses with short texts (tus) or the envelope (refusals):
    // never a 5xx, a stack trace, a refusal of an allowed caller, or a change.
    expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
    expect(res.body, label).not.toMatch(STACK);
    expect(res.body.length, label).toBeLessThan(5000);
    if (r.signed) expect(res.statusCode, label).toBe(403);
    else expect([401, 403], `${label}: ${res.body}`).not.toContain(res.statusCode);
    if (bad.mustFail) expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
    const after = await snapshot();
    expect(after, `${label} changed the database or left an upload`).toEqual(before);
    return after;
  }
  expect(res.statusCode, label).toBe(200);
  const type = String(res.headers['content-type'] ?? '');
  if (!bad.mustFail && type.startsWith('application/vnd.openxmlformats')) {
    // An export that accepted the body answers its file, with the download header.
    expect(res.headers['content-disposition'], label).toMatch(/^attachment;/);
  } else {
    expect(type, label).toMatch(/^application\/json/);
    const body = res.json();
    expect(Object.keys(body).sort(), label).toEqual(['code', 'data', 'message']);
    expect(typeof body.code, label).toBe('number');
    expect(typeof body.message, label).toBe('string');
    expect(body.message, label).not.toMatch(STACK);
    // The generic "internal error" means an exception nobody expected: malformed input must get a real answer.
    expect(body.message, label).not.toBe(errorMessages.INTERNAL.zh);
    expect(JSON.stringify(body.data ?? null), label).not.toMatch(STACK);
    // We are allowed to call the route: malformed input must not read as a login or permission problem.
    expect([401, 403], `${label}: ${body.message}`).not.toContain(body.code);
    if (bad.mustFail) {
      expect(body.code, `${label}: ${body.message}`).toBe(-2);
      // The answer explains; it does not echo a huge input back.
      expect(JSON.stringify(body).length, label).toBeLessThan(5000);
    }
    if (bad.fields) {
      // A field is named as itself or by a path inside it ('user_ids.0').
      const named = (body.data?.errors ?? []).map((e: { field: string }) => e.field.split('.')[0]);
      expect(named, `${label}: ${body.message}`).toEqual(expect.arrayContaining(bad.fields));
    }
  }
  const after = await snapshot(isLogout(r));
  expect(after, `${label} changed the database`).toEqual(before);
  return after;
}

const JSON_TYPE = 'application/json';
const HUGE = 'x'.repeat(100_000);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/**
 * Values no field of any body accepts: every field must be typed and bounded. Two exceptions are
 * by design: a boolean field accepts `true`, and a file-content field (a string declared with a
 * maximum of 100k characters or more, e.g. a base64 catalog upload) accepts a long string.
 */
const ALWAYS_WRONG: [string, unknown][] = [
  ['an object', { x: 1 }],
  ['an array of objects', [{ x: 1 }]],
  ['true', true],
  ['a 100k-character string', HUGE],
];
/** Values some fields accept; each is sent to the fields whose schema refuses it. */
const SOMETIMES_WRONG: [string, unknown][] = [
  ['null', null],
  ['-1', -1],
  ['0', 0],
  ['1.5', 1.5],
  ['"1e3"', '1e3'],
  ['""', ''],
  ['a 100-character string', 'y'.repeat(100)],
  ['a 2^31 number', 2 ** 31],
  ['[1, "a"]', [1, 'a']],
  ['[5]', [5]],
];
/** Out-of-range paging, page and page_size wrong together. */
const BAD_PAGES: [unknown, unknown][] = [
  [0, 0],
  [-1, -1],
  [-2_147_483_648, 501],
  [1.5, 1.5],
  [1_000_001, 1e9],
  [2 ** 53, 2 ** 53],
  ['0', '0'],
  ['-5', '501'],
  ['1e3', '1e2'],
  ['99999999999999999999', '99999999999999999999'],
  ['NaN', 'Infinity'],
];

/**
 * Text that must never reach the database: NUL (PostgreSQL text cannot hold it) and a lone UTF-16
 * surrogate (not Unicode). Each is appended to a value the field accepts, so only the character
 * is wrong. Dates and instants that look right but do not exist, and links to other schemes.
 */
const SAMPLE_VALUES = ['ab', 'https://a.example.com/x', '2026-02-28', '2026-02-28T08:00:00Z', 'a.example.com', '0123456789abcdef0123456789abcdef', '0 3 * * *', 'ab.csv', 'USD', '/index'];
const BAD_CHARS: [string, string][] = [
  ['NUL', '\u0000'],
  ['a lone surrogate', '\ud800'],
];
const IMPOSSIBLE: { like: string; bad: string[] }[] = [
  { like: '2026-02-28', bad: ['2026-02-30', '2025-02-29', '2026-13-01', '2026-04-31'] },
  { like: '2026-02-28T08:00:00Z', bad: ['2026-02-30T08:00:00Z', '2026-02-28T24:00:00Z', '2026-02-28T08:60:00Z'] },
];
const OTHER_SCHEMES = ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'JavaScript:alert(1)', 'file:///etc/passwd', 'vbscript:msgbox(1)'];

/** A value the field accepts built from a sample (itself, or a one-element array of it), or undefined. */
function acceptedSample(schema: Schema): { sample: string; wrap: (v: string) => unknown } | undefined {
  for (const sample of SAMPLE_VALUES) {
    if (schema.safeParse(sample).success) return { sample, wrap: (v) => v };
    if (schema.safeParse([sample]).success) return { sample, wrap: (v) => [v] };
  }
  return undefined;
}

/** Whether a field takes ordinary text (short, or long enough for any minimum length). */
const takesText = (schema: Schema) => ['ab', 'an ordinary text, long enough for any minimum length'].some((v) => schema.safeParse(v).success);
/** A field that takes a date (or an instant) and no ordinary text. */
const takesOnly = (schema: Schema, like: string) => schema.safeParse(like).success && !takesText(schema);
/** A field that takes links and no ordinary text. */
const isUrlField = (schema: Schema) => schema.safeParse('https://a.example.com/x').success && !takesText(schema);

/** Bodies putting bad text in every text field at once, an impossible date in every date field, another scheme in every URL field. */
function textCases(r: ApiRoute): Bad[] {
  const fields = Object.entries(fieldsOf(r));
  const out: Bad[] = [];
  const all = (name: string, values: [string, unknown][]) => {
    if (values.length) out.push({ name, payload: JSON.stringify(Object.fromEntries(values)), contentType: JSON_TYPE, mustFail: true, fields: values.map(([f]) => f) });
  };
  for (const [what, ch] of BAD_CHARS) {
    all(`${what} in every text field`, fields.flatMap(([f, schema]): [string, unknown][] => {
      const ok = acceptedSample(schema);
      return ok ? [[f, ok.wrap(ok.sample + ch)]] : [];
    }));
  }
  for (const { like, bad } of IMPOSSIBLE) {
    for (const value of bad) all(`${value} in every date field`, fields.filter(([, schema]) => takesOnly(schema, like)).map(([f]) => [f, value]));
  }
  for (const value of OTHER_SCHEMES) all(`${value.slice(0, 12)} in every URL field`, fields.filter(([, schema]) => isUrlField(schema)).map(([f]) => [f, value]));
  return out;
}

/** tus: Upload-Metadata of `fields` (values base64, as the protocol wants). */
const tusMeta = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

function badBodies(r: ApiRoute): Bad[] {
  if (r.binary) {
    // Bodies these routes never parse, and (tus) malformed protocol headers: each refused or ignored, nothing created.
    const tus = { 'tus-resumable': '1.0.0' };
    const good = { filename: 'a.mp4', filetype: 'video/mp4', platform: 'dj' };
    const list: Bad[] = [
      { name: 'no body', mustFail: false },
      { name: 'invalid JSON', payload: '{"a":', contentType: JSON_TYPE, mustFail: false },
      { name: 'a huge JSON string', payload: JSON.stringify(HUGE), contentType: JSON_TYPE, mustFail: false },
      { name: 'a form-encoded body', payload: 'account=a&pwd=b', contentType: 'application/x-www-form-urlencoded', mustFail: false },
      { name: 'a 1 MB unknown field', payload: JSON.stringify({ filler: 'z'.repeat(1_000_000) }), contentType: JSON_TYPE, mustFail: false },
    ];
    if (r.url.includes('/tus') && (r.method === 'POST' || r.method === 'PATCH')) {
      const creating = r.method === 'POST';
      const h = (extra: Record<string, string>) => ({ ...tus, ...(creating ? { 'upload-metadata': tusMeta(good) } : {}), ...extra });
      list.push(
        { name: 'tus: no Upload-Length', headers: h({}), mustFail: true },
        { name: 'tus: Upload-Length "abc"', headers: h({ 'upload-length': 'abc' }), mustFail: true },
        { name: 'tus: Upload-Length -1', headers: h({ 'upload-length': '-1' }), mustFail: true },
        { name: 'tus: Upload-Length 1e30', headers: h({ 'upload-length': '1'.padEnd(31, '0') }), mustFail: true },
        { name: 'tus: Upload-Length 0', headers: h({ 'upload-length': '0' }), mustFail: true },
        { name: 'tus: Upload-Defer-Length', headers: h({ 'upload-defer-length': '1' }), mustFail: true },
        { name: 'tus: Upload-Offset "x" on an octet stream', headers: h({ 'upload-length': '10', 'upload-offset': 'x' }), payload: '0123456789', contentType: 'application/offset+octet-stream', mustFail: true },
        { name: 'tus: a huge Upload-Metadata', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ ...good, remark: 'r'.repeat(50_000) }) }, mustFail: true },
      );
      if (creating) {
        list.push(
          { name: 'tus: metadata that is not base64', headers: { ...tus, 'upload-length': '10', 'upload-metadata': 'filename ***,platform ###' }, mustFail: true },
          { name: 'tus: no metadata', headers: { ...tus, 'upload-length': '10' }, mustFail: true },
          { name: 'tus: metadata without platform', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ filename: 'a.mp4', filetype: 'video/mp4' }) }, mustFail: true },
          { name: 'tus: platform "xx"', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ ...good, platform: 'xx' }) }, mustFail: true },
          { name: 'tus: a type not accepted', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ ...good, filetype: 'application/x-msdownload' }) }, mustFail: true },
          { name: 'tus: drama_id "1; drop table"', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ ...good, drama_id: '1; drop table materials' }) }, mustFail: true },
          { name: 'tus: a drama that does not exist', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ ...good, drama_id: '999999' }) }, mustFail: true },
          { name: 'tus: 31 tags', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ ...good, tags: Array.from({ length: 31 }, (_, i) => `t${i}`).join(',') }) }, mustFail: true },
          { name: 'tus: a NUL in the file name', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ ...good, filename: 'a\u0000.mp4' }) }, mustFail: true },
          { name: 'tus: a NUL in the remark', headers: { ...tus, 'upload-length': '10', 'upload-metadata': tusMeta({ ...good, remark: 'r\u0000' }) }, mustFail: true },
        );
      }
    }
    return list;
  }
  const post = r.method === 'POST';
  if (!post) {
    // GET routes never read a body: the only check is "no harm done".
    return [
      { name: 'no body', mustFail: false },
      { name: 'invalid JSON', payload: '{"a":', contentType: JSON_TYPE, mustFail: false },
      { name: 'a JSON array', payload: '[1]', contentType: JSON_TYPE, mustFail: false },
      { name: 'a huge JSON string', payload: JSON.stringify(HUGE), contentType: JSON_TYPE, mustFail: false },
    ];
  }
  const hasSchema = Boolean(r.body);
  const optional = !hasSchema || accepts(r, undefined);
  const needsFields = hasSchema && !accepts(r, {});
  const list: Bad[] = [
    { name: 'no body', mustFail: !optional },
    { name: 'an empty body typed as JSON', payload: '', contentType: JSON_TYPE, mustFail: !optional },
    { name: 'a blank body typed as JSON', payload: ' \n\t ', contentType: JSON_TYPE, mustFail: !optional },
    // Unparseable JSON is refused even where the body is not used.
    { name: 'invalid JSON', payload: '{"account": "a",', contentType: JSON_TYPE, mustFail: true },
    { name: 'JSON with a trailing comma', payload: '{"a": 1,}', contentType: JSON_TYPE, mustFail: true },
    { name: 'a form-encoded body', payload: 'account=a&pwd=b', contentType: 'application/x-www-form-urlencoded', mustFail: true },
    { name: 'a JSON array', payload: '[1, 2, 3]', contentType: JSON_TYPE, mustFail: hasSchema },
    { name: 'a JSON string', payload: '"hello"', contentType: JSON_TYPE, mustFail: hasSchema },
    { name: 'a JSON number', payload: '12345', contentType: JSON_TYPE, mustFail: hasSchema },
    { name: 'JSON true', payload: 'true', contentType: JSON_TYPE, mustFail: hasSchema },
    { name: 'JSON null', payload: 'null', contentType: JSON_TYPE, mustFail: hasSchema && !accepts(r, null) },
    { name: 'a huge JSON string', payload: JSON.stringify(HUGE), contentType: JSON_TYPE, mustFail: hasSchema },
    { name: 'a text body', payload: 'hello', contentType: 'text/plain', mustFail: hasSchema },
    {
      name: 'only unknown fields, prototype keys among them',
      payload: '{"no_such_field": 1, "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
      contentType: JSON_TYPE,
      mustFail: needsFields,
    },
    { name: 'a deeply nested unknown field', payload: `{"deep": ${deepObject(5000)}}`, contentType: JSON_TYPE, mustFail: needsFields },
    { name: 'a deeply nested array', payload: '['.repeat(50_000) + ']'.repeat(50_000), contentType: JSON_TYPE, mustFail: hasSchema },
    { name: 'a 1 MB unknown field', payload: JSON.stringify({ filler: 'z'.repeat(1_000_000) }), contentType: JSON_TYPE, mustFail: needsFields },
    { name: 'a JSON body with a bogus charset', payload: '{}', contentType: 'application/json; charset=utf-99', mustFail: needsFields },
  ];

  // Wrong values for every field at once: the refusal must name each field (zod reports them all).
  const fields = Object.entries(fieldsOf(r));
  const allWrong = (name: string, pick: (schema: Schema) => boolean, value: string) => {
    const chosen = fields.filter(([, schema]) => pick(schema)).map(([f]) => f);
    if (chosen.length) list.push({ name, payload: `{${chosen.map((f) => `${JSON.stringify(f)}: ${value}`).join(', ')}}`, contentType: JSON_TYPE, mustFail: true, fields: chosen });
  };
  allWrong('every field a deeply nested object', () => true, deepObject(2000));
  for (const [what, value] of ALWAYS_WRONG) allWrong(`every field ${what}`, (schema) => !acceptsByDesign(schema, value), JSON.stringify(value));
  for (const [what, value] of SOMETIMES_WRONG) allWrong(`${what} in every field that refuses it`, (schema) => !schema.safeParse(value).success, JSON.stringify(value));
  if ('page' in fieldsOf(r)) {
    for (const [page, page_size] of BAD_PAGES) {
      list.push({ name: `page ${JSON.stringify(page)}, page_size ${JSON.stringify(page_size)}`, payload: JSON.stringify({ page, page_size }), contentType: JSON_TYPE, mustFail: true, fields: ['page', 'page_size'] });
    }
  }
  list.push(...textCases(r));
  return list;
}

describe('malformed input', () => {
  it('covers every /api route of the app', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(expect.arrayContaining(['POST /api/login', 'POST /api/sys-users/create_account', 'POST /api/sys-departments/edit', 'GET /api/sys-menus/routes']));
    // Every route with a body declares its fields as an object schema the cases above can read.
    for (const r of routes.filter((x) => x.body)) expect(Object.keys(fieldsOf(r)).length, `${r.method} ${r.url}`).toBeGreaterThan(0);
  });

  it('every field of every body refuses values of the wrong type and huge strings', () => {
    for (const r of routes) {
      for (const [field, schema] of Object.entries(fieldsOf(r))) {
        for (const [what, value] of ALWAYS_WRONG) {
          if (acceptsByDesign(schema, value)) continue;
          expect(schema.safeParse(value).success, `${r.url} ${field} accepts ${what}`).toBe(false);
        }
      }
    }
  });

  it('every text field of every body refuses NUL and lone surrogates, however it is shaped', () => {
    let checked = 0;
    for (const r of routes) {
      for (const [field, schema] of Object.entries(fieldsOf(r))) {
        const ok = acceptedSample(schema);
        if (!ok) continue;
        for (const [what, ch] of BAD_CHARS) {
          for (const value of [ok.sample + ch, ch + ok.sample]) expect(schema.safeParse(ok.wrap(value)).success, `${r.url} ${field} accepts ${what}`).toBe(false);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('every date field of every body refuses dates and times that do not exist', () => {
    const dateFields = routes.flatMap((r) => Object.entries(fieldsOf(r)).filter(([, schema]) => IMPOSSIBLE.some((i) => takesOnly(schema, i.like))).map(([f, schema]) => [`${r.url} ${f}`, schema] as const));
    expect(dateFields.map(([name]) => name)).toEqual(expect.arrayContaining(['/api/materials/list date_from', '/api/materials/list date_to']));
    for (const [name, schema] of dateFields) {
      for (const { like, bad } of IMPOSSIBLE) if (takesOnly(schema, like)) for (const value of bad) expect(schema.safeParse(value).success, `${name} accepts ${value}`).toBe(false);
    }
  });

  it('every URL field of every body takes http(s) links only', () => {
    const urlFields = routes.flatMap((r) => Object.entries(fieldsOf(r)).filter(([, schema]) => isUrlField(schema)).map(([f, schema]) => [`${r.url} ${f}`, schema] as const));
    expect(urlFields.map(([name]) => name)).toEqual(
      expect.arrayContaining(['/api/sites/create link_template', '/api/dramas/create cover_url', '/api/products/create url', '/api/products/create cover_url', '/api/products/edit url']),
    );
    for (const [name, schema] of urlFields) {
      for (const value of OTHER_SCHEMES) expect(schema.safeParse(value).success, `${name} accepts ${value}`).toBe(false);
    }
  });

  // One test per route, so a failure names the route.
  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s answers the envelope, refuses clearly invalid bodies and changes nothing', async (_, r) => {
    const cases = badBodies(r);
    expect(cases.length).toBeGreaterThan(3);
    let state: Snapshot | undefined;
    for (const bad of cases) state = await send(r, bad, state);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the watched state', () => {
  it('covers every table of the database, read from information_schema', async () => {
    const state = await snapshot();
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`.execute(t.db);
    expect(Object.keys(state).filter((k) => k !== 'uploads')).toHaveLength(rows[0]!.n);
    expect(Object.keys(state)).toEqual(expect.arrayContaining(['users', 'sessions', 'audit_logs', 'ad_accounts', 'personal_accounts', 'sites', 'dramas', 'job_runs']));
  });
});

describe('limits and unknown paths', () => {
  it('refuses a body 1 MB over the limit (3 MB for most routes) on every POST route with a clear message', async () => {
    const bodyOver = (limit: number) => JSON.stringify({ name: 'n'.repeat(limit + 1024 * 1024) });
    const payload = bodyOver(2 * 1024 * 1024);
    // Protocol routes (tus) do not parse bodies: they stream them to disk within Upload-Length (tested there).
    for (const r of routes.filter((x) => x.method === 'POST' && !x.binary)) {
      const token = await tokenFor(r);
      const before = await snapshot(isLogout(r));
      const res = await t.app.inject({
        method: 'POST',
        url: r.url,
        headers: { 'content-type': JSON_TYPE, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        payload: r.bodyLimit ? bodyOver(r.bodyLimit) : payload,
      });
      expect(res.statusCode, r.url).toBe(200);
      expect(res.json(), r.url).toEqual({ code: -2, message: '请求体过大', data: null });
      expect(await snapshot(isLogout(r)), r.url).toEqual(before);
    }
    const en = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': JSON_TYPE, 'accept-language': 'en' }, payload });
    expect(en.json().message).toBe('The request body is too large.');
  });

  it('answers an unknown /api path or method with code -2 naming the path, logged in or not', async () => {
    const token = tokens.get('manager')!;
    for (const [method, url] of [['POST', '/api/no-such-call'], ['GET', '/api/sys-users/nope?x=1'], ['GET', '/api/sys-users/list'], ['POST', '/api'], ['DELETE', '/api/sys-users/delete_user']] as const) {
      for (const auth of [undefined, token]) {
        const res = await t.app.inject({ method, url, headers: auth ? { authorization: `Bearer ${auth}` } : {} });
        expect(res.statusCode, url).toBe(200);
        expect(res.json(), url).toEqual({ code: -2, message: `接口不存在：${url.split('?')[0]}`, data: null });
      }
    }
  });

  it('a well-formed but wrong login is the one bad input that writes: it counts the failure and audits it', async () => {
    // Failed logins must be remembered (throttling, API.md "Session"), so this case is excluded from
    // "changes nothing" above; here we check it changes only login_throttle and audit_logs.
    const before = await snapshot();
    const res = await t.call('/api/login', { account: manager.account, pwd: md5Hex('wrong') }, { ip: '10.20.30.40' });
    expect(res).toMatchObject({ code: -2, message: '账号或密码错误' });
    const after = await snapshot();
    expect({ ...after, login_throttle: '', audit_logs: '' }).toEqual({ ...before, login_throttle: '', audit_logs: '' });
    expect(after.login_throttle).not.toBe(before.login_throttle);
    const entry = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'session.login_failed').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(entry.after).toEqual({ account: manager.account, failures: 1 });
  });
});
