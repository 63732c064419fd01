import { CODE_ERROR, endpointsByPath, type EndpointsByPath } from '@ads/contracts';
import { vi } from 'vitest';
import { z } from 'zod';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The API calls the screens make: the endpoint table of the contracts, which the server's routes
 * read too. Every request a screen sends and every answer a mock gives is checked against it.
 */
export const endpoints = endpointsByPath;

export type Endpoint = keyof EndpointsByPath;
/** The body as the server's schema reads it. A call without a body takes none (the client sends `{}`). */
export type RequestOf<U extends Endpoint> = EndpointsByPath[U]['body'] extends z.ZodType ? z.output<EndpointsByPath[U]['body']> : Record<string, never> | undefined;
/** What a handler answers: data the answer schema accepts, or 'xlsx' for a file download. */
export type ResponseOf<U extends Endpoint> = EndpointsByPath[U]['answer'] extends z.ZodType ? z.input<EndpointsByPath[U]['answer']> : 'xlsx';

/** A call without a body: the client sends nothing or `{}`. */
const noBody = z.object({}).strict().optional();
/** A download's "answer" in the mocks: the mock replies with a spreadsheet blob. */
const xlsx = z.literal('xlsx');

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
export function mockApi(handlers: Handlers) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input).replace(/^https?:\/\/[^/]+/, '').replace(/^\/api/, '');
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, body, headers: (init?.headers ?? {}) as Record<string, string> });
    if (!(url in endpoints)) {
      problems.push(`no such endpoint in the mock: ${url}`);
      return json({ code: CODE_ERROR, message: `No such API: ${url}`, data: null });
    }
    const endpoint = url as Endpoint;
    const contract = endpoints[endpoint];
    const request: z.ZodType = contract.body ?? noBody;
    const response: z.ZodType = contract.answer === 'xlsx' ? xlsx : contract.answer;
    const handler = handlers[endpoint] as ((b: unknown) => unknown) | undefined;
    if (!handler) {
      problems.push(`unexpected call to ${url} ${JSON.stringify(body)}`);
      return json({ code: CODE_ERROR, message: `unexpected call to ${url}`, data: null });
    }
    const req = request.safeParse(body);
    if (!req.success) {
      problems.push(`request to ${url} breaks the contract: ${JSON.stringify(body)} ${req.error.message}`);
      return json({ code: CODE_ERROR, message: 'invalid request', data: null });
    }
    const answer = await handler(req.data);
    if (answer instanceof MockRefusal) return json({ code: answer.code, message: answer.message, data: answer.data });
    const res = response.safeParse(answer);
    if (!res.success) {
      problems.push(`mock answer of ${url} breaks the contract: ${res.error.message}`);
      throw new Error(`mock answer of ${url} breaks the contract`);
    }
    if (contract.answer === 'xlsx') return new Response(new Blob(['xlsx']), { status: 200, headers: { 'content-type': XLSX } });
    return json({ code: 0, message: 'ok', data: answer });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** Bodies sent to one endpoint, oldest first. */
    bodies: (url: Endpoint) => calls.filter((c) => c.url === url).map((c) => c.body),
    lastBody: (url: Endpoint) => calls.filter((c) => c.url === url).at(-1)?.body,
    count: (url: Endpoint) => calls.filter((c) => c.url === url).length,
  };
}
export type MockApi = ReturnType<typeof mockApi>;
