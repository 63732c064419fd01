import {
  batchSaveUserRoleBodySchema,
  CODE_ERROR,
  createDepartmentBodySchema,
  createRoleBodySchema,
  createUserBodySchema,
  createUserResultSchema,
  departmentNodeSchema,
  editDepartmentBodySchema,
  editRoleBodySchema,
  editUserBodySchema,
  idBodySchema,
  listRolesBodySchema,
  listUsersBodySchema,
  pageResultSchema,
  preferenceSchema,
  putPreferenceBodySchema,
  resetPasswdBodySchema,
  resetPasswdResultSchema,
  roleSchema,
  simpleListBodySchema,
  simpleUserSchema,
  sysUserSchema,
} from '@ads/contracts';
import { vi } from 'vitest';
import { z } from 'zod';
import { adDataEndpoints } from './ad-data-endpoints';
import { assetEndpoints } from './assets-endpoints';
import { cronEndpoints } from './cron-endpoints';
import { xlsx } from './contract-helpers';
import { materialEndpoints } from './materials-endpoints';
import { overviewEndpoints } from './overview-endpoints';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The API calls the screens make, with the contract schemas of their bodies and answers.
 * Every request a screen sends and every answer a mock gives is checked against them.
 */
export const endpoints = {
  '/sys-users/list': { request: listUsersBodySchema, response: pageResultSchema(sysUserSchema) },
  '/sys-users/export': { request: listUsersBodySchema, response: xlsx },
  '/sys-users/create_account': { request: createUserBodySchema, response: createUserResultSchema },
  '/sys-users/edit_account': { request: editUserBodySchema, response: sysUserSchema },
  '/sys-users/delete_user': { request: idBodySchema, response: z.null() },
  '/sys-users/reset_passwd': { request: resetPasswdBodySchema, response: resetPasswdResultSchema },
  '/sys-users/simple_list': { request: simpleListBodySchema, response: z.array(simpleUserSchema) },
  '/sys-users/batch_save_user_role': { request: batchSaveUserRoleBodySchema, response: z.object({ updated: z.number() }) },
  '/sys-departments/tree': { request: z.object({}).optional(), response: z.array(departmentNodeSchema) },
  '/sys-departments/create': { request: createDepartmentBodySchema, response: z.object({ id: z.number() }) },
  '/sys-departments/edit': { request: editDepartmentBodySchema, response: z.object({ id: z.number() }) },
  '/sys-departments/delete': { request: idBodySchema, response: z.null() },
  '/sys-roles/list': { request: listRolesBodySchema, response: pageResultSchema(roleSchema) },
  '/sys-roles/create': { request: createRoleBodySchema, response: z.object({ id: z.number() }) },
  '/sys-roles/edit': { request: editRoleBodySchema, response: z.object({ id: z.number() }) },
  '/sys-roles/delete': { request: idBodySchema, response: z.null() },
  ...assetEndpoints,
  ...materialEndpoints,
  ...cronEndpoints,
  ...overviewEndpoints,
  ...adDataEndpoints,
} as const;

export type Endpoint = keyof typeof endpoints;
export type RequestOf<U extends Endpoint> = z.output<(typeof endpoints)[U]['request']>;
export type ResponseOf<U extends Endpoint> = z.input<(typeof endpoints)[U]['response']>;

/** A refusal the mock answers with (code -2 by default), like the server's AppError or validation. */
export class MockRefusal {
  constructor(
    readonly message: string,
    readonly data: unknown = null,
    readonly code: number = CODE_ERROR,
  ) {}
}

export type Handler<U extends Endpoint> = (body: RequestOf<U>) => ResponseOf<U> | MockRefusal | Promise<ResponseOf<U> | MockRefusal>;
export type Handlers = { [U in Endpoint]?: Handler<U> };

export interface RecordedCall {
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

let problems: string[] = [];

/** Fails the test that just ran if a screen sent a request or a mock gave an answer off-contract. */
export function assertNoMockProblems() {
  const found = problems;
  problems = [];
  if (found.length) throw new Error(`API mock problems:\n${found.join('\n')}`);
}

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/**
 * Replaces fetch with a router over `handlers`: it validates each body against the endpoint's
 * request schema, calls the handler, validates its answer against the response schema and
 * wraps it in the envelope. Calls are recorded for assertions.
 */
export function mockApi(handlers: Handlers, { preferences = {} }: { preferences?: Record<string, unknown> } = {}) {
  const calls: RecordedCall[] = [];
  // Every screen may read and write the user's preferences (column choices): one store per mock,
  // validated like the server does it.
  const prefs = new Map(Object.entries(preferences));
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input).replace(/^https?:\/\/[^/]+/, '').replace(/^\/api/, '');
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, body, headers: (init?.headers ?? {}) as Record<string, string> });
    if (url.split('?')[0] === '/user-preferences') {
      if (init?.method === 'PUT') {
        const req = putPreferenceBodySchema.safeParse(body);
        if (!req.success) {
          problems.push(`request to ${url} breaks the contract: ${JSON.stringify(body)} ${req.error.message}`);
          return json({ code: CODE_ERROR, message: 'invalid request', data: null });
        }
        prefs.set(req.data.key, req.data.value);
      }
      const key = init?.method === 'PUT' ? (body as { key: string }).key : (new URLSearchParams(url.split('?')[1]).get('key') ?? '');
      const value = prefs.get(key) ?? null;
      return json({ code: 0, message: 'ok', data: preferenceSchema.parse({ key, value, updated_at: value === null ? null : '2026-11-01T08:00:00.000Z' }) });
    }
    if (!(url in endpoints)) {
      problems.push(`no such endpoint in the mock: ${url}`);
      return json({ code: CODE_ERROR, message: `No such API: ${url}`, data: null });
    }
    const endpoint = url as Endpoint;
    const contract = endpoints[endpoint];
    const handler = handlers[endpoint] as ((b: unknown) => unknown) | undefined;
    if (!handler) {
      problems.push(`unexpected call to ${url} ${JSON.stringify(body)}`);
      return json({ code: CODE_ERROR, message: `unexpected call to ${url}`, data: null });
    }
    const req = contract.request.safeParse(body);
    if (!req.success) {
      problems.push(`request to ${url} breaks the contract: ${JSON.stringify(body)} ${req.error.message}`);
      return json({ code: CODE_ERROR, message: 'invalid request', data: null });
    }
    const answer = await handler(req.data);
    if (answer instanceof MockRefusal) return json({ code: answer.code, message: answer.message, data: answer.data });
    const res = contract.response.safeParse(answer);
    if (!res.success) {
      problems.push(`mock answer of ${url} breaks the contract: ${res.error.message}`);
      throw new Error(`mock answer of ${url} breaks the contract`);
    }
    if (contract.response === xlsx) return new Response(new Blob(['xlsx']), { status: 200, headers: { 'content-type': XLSX } });
    return json({ code: 0, message: 'ok', data: answer });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** Bodies sent to one endpoint, oldest first. */
    bodies: (url: Endpoint) => calls.filter((c) => c.url === url).map((c) => c.body),
    lastBody: (url: Endpoint) => calls.filter((c) => c.url === url).at(-1)?.body,
    count: (url: Endpoint) => calls.filter((c) => c.url === url).length,
    /** What the user's preferences hold now (GET/PUT /user-preferences). */
    preference: (key: string) => prefs.get(key),
  };
}
export type MockApi = ReturnType<typeof mockApi>;
