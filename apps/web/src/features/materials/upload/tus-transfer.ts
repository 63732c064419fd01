import { CODE_OK, CODE_UNAUTHORIZED, MATERIAL_CHUNK_BYTES, MATERIAL_TUS_PATH, uploadResultSchema, type UploadResult } from '@ads/contracts';
import { defaultOptions, Upload, type DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { acceptLanguage } from '@/lib/i18n';
import { useSession } from '@/stores/session-store';
import { isFinalStatus, type Transfer, type TransferEvents, type UploadError } from './upload-queue';

/** An upload this browser started earlier, as tus-js-client stores it. */
export type PreviousUpload = Awaited<ReturnType<Upload['findPreviousUploads']>>[number];

/** The tus 1.0 endpoint of material uploads. */
export const TUS_PATH = MATERIAL_TUS_PATH;

/**
 * Waits between retries of a chunk after a network failure or a 5xx (server restarting): about
 * two minutes in all. Past that the file shows "network" and the queue tries again when the
 * browser is back online.
 */
export const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000];

/** tus-js-client resolves the upload URL against the endpoint, so the endpoint must be absolute. */
const endpoint = () => new URL(TUS_PATH, window.location.origin).href;

/** The upload id is the last path segment of the upload URL. */
export const uploadIdOf = (url: string) => url.replace(/[?#].*$/, '').split('/').filter(Boolean).at(-1) ?? '';

/** The envelope in a tus answer's body, when it carries one. */
function envelopeOf(res: HttpResponse | null): { code: number; message: string; data: unknown } | null {
  const body = res?.getBody();
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object' && 'code' in parsed && typeof (parsed as { code: unknown }).code === 'number') return parsed as { code: number; message: string; data: unknown };
  } catch {
    // Not JSON: the tus server's plain-text reason.
  }
  return null;
}

/** What went wrong, in the queue's terms: the server's own message whenever it sent one. */
export function uploadErrorOf(err: Error | DetailedError): UploadError {
  const res = 'originalResponse' in err ? err.originalResponse : null;
  if (!res) return 'originalRequest' in err && err.originalRequest ? { kind: 'network' } : { kind: 'server', message: err.message };
  const status = res.getStatus();
  const envelope = envelopeOf(res);
  if (status === 401 || envelope?.code === CODE_UNAUTHORIZED) return { kind: 'session' };
  if (envelope?.message) return { kind: 'server', message: envelope.message, status };
  const text = res.getBody()?.trim();
  if (text && text.length <= 300 && !text.startsWith('<')) return { kind: 'server', message: text, status };
  return status === 0 ? { kind: 'network' } : { kind: 'server', message: `HTTP ${status}`, status };
}

/**
 * One tus upload of a file. The URL of every started upload is kept in localStorage under the
 * file's fingerprint (name, type, size, modification time, endpoint), so dropping the same file
 * again after a closed tab or a crash continues from the last chunk the server has.
 */
/** Every tus request carries the session's token (read at each request) and the interface language. */
const withAuth = (req: HttpRequest) => {
  const token = useSession.getState().token;
  if (token) req.setHeader('Authorization', `Bearer ${token}`);
  req.setHeader('Accept-Language', acceptLanguage());
};

/**
 * Whether tus-js-client retries a request on its own: its rule (unless a 4xx other than 409/423),
 * except 507 — the server's disk is full, and minutes of silent retries would only hide the
 * reason it sent; the file shows it and can be retried by hand.
 */
export const isRetryableStatus = (status: number) => (status < 400 || status >= 500 || status === 409 || status === 423) && status !== 507;

/** A refusal the same bytes would meet again (type, size, corrupt file): the stored URL is of no use. */
const isFinal = (e: UploadError) => e.kind === 'server' && isFinalStatus(e.status);

export function createTusTransfer(file: File, metadata: Record<string, string>, events: TransferEvents): Transfer {
  let resumeChecked = false;
  /** Drops this file's stored upload URLs, so it is not offered as "unfinished" again. */
  const forgetStored = () =>
    upload
      .findPreviousUploads()
      .then((list) => Promise.all(list.map((u) => defaultOptions.urlStorage.removeUpload(u.urlStorageKey))))
      .catch(() => undefined);
  const upload = new Upload(file, {
    endpoint: endpoint(),
    chunkSize: MATERIAL_CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    metadata,
    removeFingerprintOnSuccess: true,
    onBeforeRequest: withAuth,
    onAfterResponse: (req, res) => {
      if (req.getMethod() === 'HEAD' && res.getStatus() < 300) {
        const offset = Number(res.getHeader('Upload-Offset'));
        if (Number.isFinite(offset)) events.onResume(offset);
      }
    },
    onProgress: (sent, total) => events.onProgress(sent, total),
    onSuccess: ({ lastResponse }) => {
      const id = uploadIdOf(upload.url ?? '');
      const envelope = envelopeOf(lastResponse);
      if (envelope && envelope.code !== CODE_OK) {
        events.onError(envelope.code === CODE_UNAUTHORIZED ? { kind: 'session' } : { kind: 'server', message: envelope.message });
        return;
      }
      const parsed = envelope ? uploadResultSchema.safeParse(envelope.data) : null;
      events.onSuccess(id, parsed?.success ? (parsed.data satisfies UploadResult) : null);
    },
    onError: (err) => {
      const error = uploadErrorOf(err);
      if (isFinal(error)) void forgetStored();
      events.onError(error);
    },
    onShouldRetry: (err, attempt) => {
      const retry = isRetryableStatus(err.originalResponse?.getStatus() ?? 0) && navigator.onLine !== false;
      if (retry) events.onRetry?.(attempt + 1);
      return retry;
    },
  });

  return {
    start: () => {
      if (upload.url || resumeChecked) {
        upload.start();
        return;
      }
      resumeChecked = true;
      void upload
        .findPreviousUploads()
        .then((previous) => {
          const latest = [...previous].sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
          if (latest) upload.resumeFromPreviousUpload(latest);
        })
        .catch(() => undefined)
        .finally(() => upload.start());
    },
    pause: () => upload.abort(false),
    // The server may already have dropped it (refused, expired): forget it here either way.
    cancel: () => upload.abort(true).catch(() => undefined).finally(forgetStored),
  };
}

/** Uploads started earlier on this browser and never finished (closed tab, crash), newest first. */
export async function listInterruptedUploads(): Promise<PreviousUpload[]> {
  try {
    const all = await defaultOptions.urlStorage.findAllUploads();
    return all.filter((u) => u.uploadUrl?.includes(TUS_PATH)).sort((a, b) => b.creationTime.localeCompare(a.creationTime));
  } catch {
    return [];
  }
}

/** Forgets an interrupted upload here and asks the server to discard its bytes. */
export async function forgetInterruptedUpload(previous: PreviousUpload) {
  await defaultOptions.urlStorage.removeUpload(previous.urlStorageKey);
  if (previous.uploadUrl) await Upload.terminate(previous.uploadUrl, { ...defaultOptions, retryDelays: null, onBeforeRequest: withAuth }).catch(() => undefined);
}
