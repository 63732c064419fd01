import type { endpoints } from '@ads/contracts';
import { CODE_OK, CODE_UNAUTHORIZED, REQUEST_TIMEOUT_MS, SESSION_CALLS, TOKEN_HEADER, type AnswerOf, type AnyEndpoint, type BodyIn, type FieldError } from '@ads/contracts/core';
import i18n, { acceptLanguage } from './i18n';
import { feedback } from './feedback';
import { useSession } from '@/stores/session-store';

/** SPEC.md §9 durations. */
export const ERROR_NOTIFY_SECONDS = 3;
export const LOGOUT_DELAY_MS = 500;
export const BASE_PATH = '/api';

const SPREADSHEET_TYPES = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel'];

/** A call the server answered with a non-zero code (already shown to the user). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly url: string,
    readonly data: unknown,
  ) {
    super(message);
  }
  /** Field errors of a validation failure (API.md), for forms to show beside the inputs. */
  get fieldErrors(): FieldError[] {
    const errors = (this.data as { errors?: FieldError[] } | null)?.errors;
    return Array.isArray(errors) ? errors : [];
  }
}

/** A network failure, time-out or HTTP error (already shown as a toast). */
export class NetworkError extends Error {}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT';
  /** Expect a file: only a spreadsheet is accepted (SPEC.md §8). */
  blob?: boolean;
  signal?: AbortSignal;
  /**
   * Only reject, without toast or notification (a 401 still ends the session): for background
   * calls whose failures SPEC.md wants logged only, such as get_user_info at start.
   */
  quiet?: boolean;
}

let loggingOut = false;

/** After a 401: clear everything, reload, land on /login (SPEC.md §8), once however many calls fail. */
function expireSession(serverMessage: string) {
  feedback.message.error(serverMessage);
  if (loggingOut) return;
  loggingOut = true;
  setTimeout(() => {
    // Store first: its persistence would otherwise write "user-store" back after the clear.
    useSession.getState().clear();
    localStorage.clear();
    window.location.replace('/login');
    loggingOut = false;
  }, LOGOUT_DELAY_MS);
}

function notifyError(url: string, text: string) {
  feedback.notification.error({ title: `Error: ${url}`, description: text, duration: ERROR_NOTIFY_SECONDS });
}

/**
 * The one request layer: Bearer token, 10-minute time-out, the envelope rules of SPEC.md §8.
 * Resolves with `data` on code 0; otherwise shows the error and rejects.
 */
export async function request<T = unknown>(url: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const method = opts.method ?? (body === undefined ? 'GET' : 'POST');
  const token = useSession.getState().token;
  const headers: Record<string, string> = { 'Accept-Language': acceptLanguage() };
  if (token) headers[TOKEN_HEADER] = `Bearer ${token}`;
  if (method !== 'GET') headers['Content-Type'] = 'application/json';

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), REQUEST_TIMEOUT_MS);
  opts.signal?.addEventListener('abort', () => controller.abort(opts.signal?.reason));

  let res: Response;
  try {
    res = await fetch(BASE_PATH + url, {
      method,
      headers,
      body: method !== 'GET' ? JSON.stringify(body ?? {}) : undefined,
      signal: controller.signal,
    });
  } catch (err) {
    clearTimeout(timer);
    if (opts.signal?.aborted) throw err;
    const isTimeout = (err as Error).name === 'TimeoutError' || controller.signal.reason instanceof DOMException;
    const text = isTimeout ? i18n.t('network.timeout') : i18n.t('network.failed', { message: (err as Error).message });
    if (!opts.quiet) feedback.message.error(text);
    throw new NetworkError(text);
  }
  clearTimeout(timer);

  const contentType = res.headers.get('content-type') ?? '';
  if (opts.blob && SPREADSHEET_TYPES.some((t) => contentType.includes(t))) return (await res.blob()) as T;

  if (!res.ok && !contentType.includes('application/json')) {
    const text = i18n.t('network.http', { status: res.status });
    if (!opts.quiet) feedback.message.error(text);
    throw new NetworkError(text);
  }

  let envelope: { code: number; message: string; data: unknown };
  try {
    envelope = (await res.json()) as typeof envelope;
  } catch (err) {
    // The caller gave up while the body was arriving: not a failure to tell anyone about.
    if (opts.signal?.aborted) throw err;
    const text = i18n.t('network.failed', { message: (err as Error).message });
    if (!opts.quiet) feedback.message.error(text);
    throw new NetworkError(text);
  }

  // An ended session ends everything, a download included.
  if (envelope.code === CODE_UNAUTHORIZED) {
    expireSession(envelope.message);
    throw new ApiError(envelope.code, envelope.message, url, envelope.data);
  }
  if (opts.blob) {
    // A file was expected but something else came: show its message (SPEC.md §8).
    if (!opts.quiet) feedback.notification.error({ title: 'Error', description: envelope.message, duration: ERROR_NOTIFY_SECONDS });
    throw new ApiError(envelope.code, envelope.message, url, envelope.data);
  }
  if (envelope.code === CODE_OK) return envelope.data as T;
  if (!opts.quiet) notifyError(url, envelope.message);
  throw new ApiError(envelope.code, envelope.message, url, envelope.data);
}

/** Saves a blob under `filename` through a temporary link (downloads, generated templates). */
export function saveBlob(blob: Blob, filename: string) {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** A call of the endpoint table; the body may be left out only where the call takes none. */
type CallArgs<E extends AnyEndpoint> = E['body'] extends null ? [body?: BodyIn<E>, opts?: RequestOptions] : [body: BodyIn<E>, opts?: RequestOptions];
/** A JSON call (not a download). */
type JsonEndpoint = AnyEndpoint & { answer: Exclude<AnyEndpoint['answer'], 'xlsx'> };
/** A download call. */
type FileEndpoint = AnyEndpoint & { answer: 'xlsx' };

/** The session entries of the endpoint table (types only: see `session` below). */
type SessionEndpoints = typeof endpoints.session;
type ResetPasswd = typeof endpoints.sysUsers.reset_passwd;
/** A call by path and method, typed as the endpoint table entry E. */
const callAs = <E extends JsonEndpoint>(call: Pick<E, 'path' | 'method'>, ...[body, opts]: CallArgs<E>): Promise<AnswerOf<E>> =>
  request<AnswerOf<E>>(call.path, call.method === 'POST' ? (body ?? {}) : undefined, { ...opts, method: call.method });

export const api = {
  /**
   * The session calls of the endpoint table (endpoints.session, and sysUsers.reset_passwd for
   * one's own password from the header), made from their zod-free path and method (SESSION_CALLS,
   * which the table's entries are built from) and typed by the table: the login page, start-up
   * and the app shell would otherwise load zod and every schema first.
   */
  session: {
    login: (...args: CallArgs<SessionEndpoints['login']>) => callAs<SessionEndpoints['login']>(SESSION_CALLS.login, ...args),
    logout: (...args: CallArgs<SessionEndpoints['logout']>) => callAs<SessionEndpoints['logout']>(SESSION_CALLS.logout, ...args),
    get_user_info: (...args: CallArgs<SessionEndpoints['get_user_info']>) => callAs<SessionEndpoints['get_user_info']>(SESSION_CALLS.get_user_info, ...args),
    reset_passwd: (...args: CallArgs<ResetPasswd>) => callAs<ResetPasswd>(SESSION_CALLS.reset_passwd, ...args),
  },
  /** Makes a call of the endpoint table (packages/contracts endpoints): path, method, body and answer types come from it. */
  call: <E extends JsonEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<AnswerOf<E>> => callAs<E>(endpoint, ...args),
  /** POSTs a filter body to a download call and saves the spreadsheet answer under `filename`. */
  async download<E extends FileEndpoint>(endpoint: E, body: BodyIn<E>, filename: string) {
    saveBlob(await request<Blob>(endpoint.path, body ?? {}, { method: 'POST', blob: true }), filename);
  },
};
