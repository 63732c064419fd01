import type { z } from 'zod';

/**
 * Who may make a call: the route paths of SPEC.md §6 the server checks (any one of them
 * suffices), `user` for every logged-in user (the service limits what each one sees), or
 * `public` (no login: login itself, health).
 */
export type Access = readonly string[] | 'user' | 'public';

/** What a call answers inside the envelope: a zod schema of `data`, or `xlsx` for a file download. */
export type Answer = z.ZodType | 'xlsx';

/** One API call of the table: path under /api, method, body, answer and who may call it. */
export interface Endpoint<P extends string = string, B extends z.ZodType | null = z.ZodType | null, A extends Answer = Answer> {
  /** Under /api, as in SPEC.md / API.md (`/sys-users/list`). */
  readonly path: P;
  readonly method: 'GET' | 'POST';
  /** The JSON body's schema; null: the call takes none (an empty body or `{}` is accepted). */
  readonly body: B;
  readonly answer: A;
  readonly allow: Access;
  /** OpenAPI group. */
  readonly tag: string;
  readonly summary?: string;
  /** A request-size limit of its own (base64 file imports), when it differs from the app's. */
  readonly bodyLimit?: number;
}

export type AnyEndpoint = Endpoint<string, z.ZodType | null, Answer>;

/** The body a caller sends (before the schema's defaults and coercions). */
export type BodyIn<E extends AnyEndpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : void | Record<string, never>;
/** The body a handler receives (after parsing). */
export type BodyOut<E extends AnyEndpoint> = E['body'] extends z.ZodType ? z.output<E['body']> : undefined;
/** The `data` a call answers (what the web reads). */
export type AnswerOf<E extends AnyEndpoint> = E['answer'] extends z.ZodType ? z.output<E['answer']> : Blob;
/** The `data` a handler may return (what the answer schema accepts). */
export type AnswerIn<E extends AnyEndpoint> = E['answer'] extends z.ZodType ? z.input<E['answer']> : never;

/** Declares one call; POST unless said otherwise (API.md: calls are POST with a JSON body). */
export function define<const P extends string, B extends z.ZodType | null = null, A extends Answer = Answer>(e: {
  path: P;
  method?: 'GET' | 'POST';
  body?: B;
  answer: A;
  allow: Access;
  tag: string;
  summary?: string;
  bodyLimit?: number;
}): Endpoint<P, B, A> {
  return { ...e, method: e.method ?? 'POST', body: (e.body ?? null) as B };
}

/** Whether a user holding `paths` may make the call (the server runs the same check). */
export function endpointAllows(endpoint: Pick<AnyEndpoint, 'allow'>, paths: readonly string[]): boolean {
  const { allow } = endpoint;
  if (allow === 'public' || allow === 'user') return true;
  return allow.some((p) => paths.includes(p));
}

/** A table of calls keyed by path. */
export function byPath<const T extends readonly AnyEndpoint[]>(list: T): { [E in T[number] as E['path']]: E } {
  const out: Record<string, AnyEndpoint> = {};
  for (const e of list) {
    if (out[e.path]) throw new Error(`endpoint ${e.path} declared twice`);
    out[e.path] = e;
  }
  return out as { [E in T[number] as E['path']]: E };
}
