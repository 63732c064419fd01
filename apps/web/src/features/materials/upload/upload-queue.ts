import type { Material, Platform, UploadResult } from '@ads/contracts';

/**
 * The material upload queue: each file is hashed (md5, to ask the server whether the content is
 * already in the library), then sent in resumable chunks. Hashing runs one file at a time (it is
 * CPU work on the main thread); at most `uploadConcurrency` files send at once. Everything that
 * touches the network or the file's bytes comes in through `UploadDeps`, so this logic is tested
 * without tus, hash-wasm or a server.
 */

/** What the user chose for the files they add: sent as tus Upload-Metadata. */
export interface UploadMeta {
  platform: Platform;
  drama_id?: number;
  product_id?: number;
  language?: string;
  editor_id?: number;
  tags?: string[];
  remark?: string;
  /** Names of the chosen drama / product and editor, to show in the queue (not sent). */
  labels?: { catalog?: string; editor?: string };
}

export type UploadStatus =
  | 'queued' // waiting to be hashed
  | 'hashing'
  | 'checking' // asking /materials/check_hash
  | 'waiting' // hashed, waiting for an upload slot
  | 'uploading'
  | 'paused'
  | 'finishing' // every byte sent; asking what became of it
  | 'done' // a new material
  | 'duplicate' // the content was already in the library (or earlier in this queue)
  | 'failed';

/** Why a file stopped: `server` and `refused` carry the server's (or our) message. */
export type UploadError =
  | { kind: 'server'; message: string; status?: number }
  | { kind: 'network' }
  | { kind: 'type' }
  | { kind: 'session' }
  /** The file could not be read (moved, deleted or permission lost since it was chosen). */
  | { kind: 'read'; message?: string }
  /** The bytes arrived but the result could not be read: retrying only asks again. */
  | { kind: 'result'; message?: string };

export interface UploadItem {
  /** Local id of this queue entry. */
  key: string;
  file: File;
  meta: UploadMeta;
  status: UploadStatus;
  /** Bytes hashed so far. */
  hashed: number;
  md5: string | null;
  /** Bytes the server has (sent and acknowledged, or in flight in the current chunk). */
  sent: number;
  /** Bytes the server already had when this run resumed an earlier upload; null when it started from zero. */
  resumedFrom: number | null;
  /** Bytes per second over the last seconds; null until measurable. */
  speed: number | null;
  /** Seconds left at the current speed; null until measurable. */
  eta: number | null;
  error: UploadError | null;
  /** The material created, or the existing one this file duplicates. */
  material: Material | null;
  /** For a duplicate found in this queue before any upload: the other entry's file name. */
  sameAs: string | null;
  /** The tus upload id once all bytes arrived (to ask for the result again). */
  uploadId: string | null;
  /** Whether the pause happened while hashing (resume hashes again) or sending. */
  pausedIn: 'hash' | 'upload' | null;
  /** Set while a failed request is being tried again: which attempt; cleared by the next progress. */
  retrying: number | null;
  addedAt: number;
}

export interface TransferEvents {
  onProgress: (sent: number, total: number) => void;
  /** An earlier, interrupted upload of the same file was found and continues from `offset`. */
  onResume: (offset: number) => void;
  /** A request failed and is tried again shortly (connection lost, server restarting). */
  onRetry?: (attempt: number) => void;
  /** All bytes are on the server. `result` is read from the last answer when it carried one. */
  onSuccess: (uploadId: string, result: UploadResult | null) => void;
  onError: (error: UploadError) => void;
}

/** One resumable transfer of a file (the tus upload, in the app). */
export interface Transfer {
  /** Starts or resumes (an interrupted upload of the same file, even from another page load, continues). */
  start: () => void;
  /** Stops sending; `start` continues from the last chunk the server has. */
  pause: () => Promise<void>;
  /** Stops and asks the server to discard what it has. */
  cancel: () => Promise<void>;
}

export interface UploadDeps {
  /** md5 hex of the file, reporting bytes hashed; rejects with an AbortError when aborted. */
  hash: (file: File, onProgress: (bytes: number) => void, signal: AbortSignal) => Promise<string>;
  /** The material with this content, or null; may reject (then the upload goes ahead: the server dedups anyway). */
  checkHash: (md5: string) => Promise<Material | null>;
  createTransfer: (file: File, metadata: Record<string, string>, events: TransferEvents) => Transfer;
  /** /materials/upload_result for a finished upload. */
  fetchResult: (uploadId: string) => Promise<UploadResult>;
  now: () => number;
}

export interface UploadQueueOptions {
  uploadConcurrency?: number;
  hashConcurrency?: number;
  /** Progress is published at most this often (ms); state changes at once. */
  progressIntervalMs?: number;
  /** Window of the speed measure (ms). */
  speedWindowMs?: number;
}

/** Types the server accepts are decided from the content; the browser's guess only screens out the obvious. */
const isMediaType = (type: string) => type === '' || type.startsWith('video/') || type.startsWith('image/');

/** The tus Upload-Metadata of a file: only the fields that are set. */
export function uploadMetadata(file: File, meta: UploadMeta): Record<string, string> {
  const m: Record<string, string> = { filename: file.name, filetype: file.type || 'application/octet-stream', platform: meta.platform };
  if (meta.platform === 'dj' && meta.drama_id !== undefined) m.drama_id = String(meta.drama_id);
  if (meta.platform === 'ec' && meta.product_id !== undefined) m.product_id = String(meta.product_id);
  if (meta.language) m.language = meta.language;
  if (meta.editor_id !== undefined) m.editor_id = String(meta.editor_id);
  if (meta.tags?.length) m.tags = meta.tags.join(',');
  if (meta.remark?.trim()) m.remark = meta.remark.trim();
  return m;
}

/** A file is "the same file" for the queue when name, size and modification time match (as tus fingerprints it). */
const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

const ACTIVE: ReadonlySet<UploadStatus> = new Set(['queued', 'hashing', 'checking', 'waiting', 'uploading', 'finishing']);
const FINISHED: ReadonlySet<UploadStatus> = new Set(['done', 'duplicate']);

export const isActive = (item: Pick<UploadItem, 'status'>) => ACTIVE.has(item.status);
export const isFinished = (item: Pick<UploadItem, 'status'>) => FINISHED.has(item.status);
/** Client errors the same bytes would meet again (too large, wrong type, corrupt); not 408/409/423/429, which pass. */
export const isFinalStatus = (status: number | undefined) => status !== undefined && status >= 400 && status < 500 && ![401, 408, 409, 423, 429].includes(status);

/** Refused for what the file is (type, size, content): trying again cannot help; the entry can only be removed. */
export const isRefused = (item: Pick<UploadItem, 'status' | 'error'>) =>
  item.status === 'failed' && (item.error?.kind === 'type' || (item.error?.kind === 'server' && isFinalStatus(item.error.status)));

/** Failed in a way that trying again can fix (a lost connection, a server error, an ended session). */
export const canRetry = (item: Pick<UploadItem, 'status' | 'error'>) => item.status === 'failed' && !isRefused(item);

export interface QueueSummary {
  total: number;
  active: number;
  uploading: number;
  paused: number;
  done: number;
  duplicate: number;
  failed: number;
  /** Bytes of the files still to upload or uploading, and how many of them the server has. */
  bytesTotal: number;
  bytesSent: number;
}

export function summarize(items: readonly UploadItem[]): QueueSummary {
  const s: QueueSummary = { total: items.length, active: 0, uploading: 0, paused: 0, done: 0, duplicate: 0, failed: 0, bytesTotal: 0, bytesSent: 0 };
  for (const i of items) {
    if (isActive(i)) s.active++;
    if (i.status === 'uploading') s.uploading++;
    if (i.status === 'paused') s.paused++;
    if (i.status === 'done') s.done++;
    if (i.status === 'duplicate') s.duplicate++;
    if (i.status === 'failed') s.failed++;
    if (isActive(i) || i.status === 'paused') {
      s.bytesTotal += i.file.size;
      s.bytesSent += i.sent;
    }
  }
  return s;
}

interface Runtime {
  abort?: AbortController;
  transfer?: Transfer;
  samples: { t: number; sent: number }[];
  /** Bumped whenever the item is paused, cancelled or restarted: late callbacks of an older run are ignored. */
  run: number;
}

export class UploadQueue {
  private items: UploadItem[] = [];
  private readonly runtime = new Map<string, Runtime>();
  private readonly listeners = new Set<() => void>();
  private readonly uploadConcurrency: number;
  private readonly hashConcurrency: number;
  private readonly progressIntervalMs: number;
  private readonly speedWindowMs: number;
  private lastEmit = 0;
  private trailing: ReturnType<typeof setTimeout> | null = null;
  private seq = 0;

  constructor(
    private readonly deps: UploadDeps,
    opts: UploadQueueOptions = {},
  ) {
    this.uploadConcurrency = opts.uploadConcurrency ?? 3;
    this.hashConcurrency = opts.hashConcurrency ?? 1;
    this.progressIntervalMs = opts.progressIntervalMs ?? 200;
    this.speedWindowMs = opts.speedWindowMs ?? 5000;
  }

  // ---- store interface (useSyncExternalStore) ------------------------------------------------

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): readonly UploadItem[] => this.items;

  get(key: string): UploadItem | undefined {
    return this.items.find((i) => i.key === key);
  }

  // ---- commands ------------------------------------------------------------------------------

  /**
   * Adds files with the metadata chosen for them. A file already in the queue (same name, size
   * and time) and not finished is not added twice; its key is returned instead.
   */
  add(files: readonly File[], meta: UploadMeta): string[] {
    const keys: string[] = [];
    const added: UploadItem[] = [];
    for (const file of files) {
      const existing = [...this.items, ...added].find((i) => sameFile(i.file, file) && !isFinished(i));
      if (existing) {
        keys.push(existing.key);
        continue;
      }
      const key = `u${++this.seq}`;
      const refused = !isMediaType(file.type);
      added.push({
        key,
        file,
        meta: { ...meta, tags: meta.tags ? [...meta.tags] : undefined },
        status: refused ? 'failed' : 'queued',
        hashed: 0,
        md5: null,
        sent: 0,
        resumedFrom: null,
        speed: null,
        eta: null,
        error: refused ? { kind: 'type' } : null,
        material: null,
        sameAs: null,
        uploadId: null,
        pausedIn: null,
        retrying: null,
        addedAt: this.deps.now(),
      });
      this.runtime.set(key, { samples: [], run: 0 });
      keys.push(key);
    }
    if (added.length) {
      this.items = [...this.items, ...added];
      this.emit();
      this.pump();
    }
    return keys;
  }

  /** Stops hashing or sending one file; `resume` continues it. */
  pause(key: string) {
    const item = this.get(key);
    const rt = this.runtime.get(key);
    if (!item || !rt) return;
    if (item.status === 'queued' || item.status === 'waiting') {
      this.update(key, { status: 'paused', pausedIn: item.status === 'queued' ? 'hash' : 'upload', speed: null, eta: null });
    } else if (item.status === 'hashing' || item.status === 'checking') {
      rt.run++;
      rt.abort?.abort();
      this.update(key, { status: 'paused', pausedIn: 'hash', hashed: 0, speed: null, eta: null });
    } else if (item.status === 'uploading') {
      rt.run++;
      void rt.transfer?.pause();
      rt.samples = [];
      this.update(key, { status: 'paused', pausedIn: 'upload', speed: null, eta: null });
    } else return;
    this.pump();
  }

  resume(key: string) {
    const item = this.get(key);
    if (!item || item.status !== 'paused') return;
    this.update(key, { status: item.pausedIn === 'hash' || !item.md5 ? 'queued' : 'waiting', pausedIn: null });
    this.pump();
  }

  pauseAll() {
    for (const i of this.items) if (isActive(i) && i.status !== 'finishing') this.pause(i.key);
  }

  resumeAll() {
    for (const i of this.items) if (i.status === 'paused') this.resume(i.key);
  }

  /** Tries a failed file again: a transfer resumes from the last chunk; a lost result is only asked again. */
  retry(key: string) {
    const item = this.get(key);
    if (!item || !canRetry(item)) return;
    const rt = this.runtime.get(key)!;
    rt.run++;
    if (item.error?.kind === 'result' && item.uploadId) {
      this.update(key, { status: 'finishing', error: null });
      void this.fetchResult(key, item.uploadId, rt.run);
      return;
    }
    this.update(key, { status: item.md5 ? 'waiting' : 'queued', error: null });
    this.pump();
  }

  /** Retries every file that stopped on a network failure (called when the browser is back online). */
  retryNetworkFailures() {
    for (const i of this.items) if (i.status === 'failed' && i.error?.kind === 'network') this.retry(i.key);
  }

  /** Stops a file and drops it from the queue; a started upload is discarded on the server too. */
  cancel(key: string) {
    const item = this.get(key);
    const rt = this.runtime.get(key);
    if (!item || !rt) return;
    rt.run++;
    rt.abort?.abort();
    if (rt.transfer && !isFinished(item)) void rt.transfer.cancel().catch(() => undefined);
    this.runtime.delete(key);
    this.items = this.items.filter((i) => i.key !== key);
    this.emit();
    this.pump();
  }

  /** Drops finished (done, duplicate) and refused entries from the list. */
  clearFinished() {
    const gone = this.items.filter((i) => isFinished(i) || isRefused(i));
    if (!gone.length) return;
    for (const i of gone) this.runtime.delete(i.key);
    this.items = this.items.filter((i) => !gone.includes(i));
    this.emit();
  }

  // ---- scheduling ----------------------------------------------------------------------------

  private pump() {
    const hashing = this.items.filter((i) => i.status === 'hashing' || i.status === 'checking').length;
    let hashSlots = this.hashConcurrency - hashing;
    for (const item of this.items) {
      if (hashSlots <= 0) break;
      if (item.status !== 'queued') continue;
      hashSlots--;
      void this.hashAndCheck(item.key);
    }
    const sending = this.items.filter((i) => i.status === 'uploading').length;
    let uploadSlots = this.uploadConcurrency - sending;
    for (const item of this.items) {
      if (uploadSlots <= 0) break;
      if (item.status !== 'waiting') continue;
      uploadSlots--;
      this.startTransfer(item.key);
    }
  }

  private async hashAndCheck(key: string) {
    const rt = this.runtime.get(key);
    const item = this.get(key);
    if (!rt || !item) return;
    const run = ++rt.run;
    const abort = new AbortController();
    rt.abort = abort;
    this.update(key, { status: 'hashing', hashed: 0, error: null });
    let md5 = item.md5;
    try {
      md5 ??= await this.deps.hash(item.file, (bytes) => rt.run === run && this.progress(key, { hashed: bytes }), abort.signal);
    } catch (err) {
      if (rt.run !== run) return;
      this.update(key, { status: 'failed', error: { kind: 'read', message: (err as Error).message } });
      this.pump();
      return;
    }
    if (rt.run !== run) return;
    rt.abort = undefined;
    this.update(key, { status: 'checking', md5, hashed: item.file.size });

    // The same content earlier in this queue (two names, one video): one upload is enough.
    const twin = this.items.find((i) => i.key !== key && i.md5 === md5 && i.status !== 'failed');
    if (twin) {
      this.update(key, twin.material ? { status: 'duplicate', material: twin.material } : { status: 'duplicate', sameAs: twin.file.name });
      this.pump();
      return;
    }

    let existing: Material | null = null;
    try {
      existing = await this.deps.checkHash(md5);
    } catch {
      // The server dedups on arrival anyway; a failed check only costs the upload.
    }
    if (rt.run !== run) return;
    this.update(key, existing ? { status: 'duplicate', material: existing } : { status: 'waiting' });
    this.pump();
  }

  private startTransfer(key: string) {
    const item = this.get(key);
    const rt = this.runtime.get(key);
    if (!item || !rt) return;
    const run = ++rt.run;
    rt.samples = [];
    this.update(key, { status: 'uploading', speed: null, eta: null, error: null, retrying: null });
    const live = () => rt.run === run;
    rt.transfer ??= this.deps.createTransfer(item.file, uploadMetadata(item.file, item.meta), {
      onProgress: (sent) => {
        const r = this.runtime.get(key);
        if (r && this.get(key)?.status === 'uploading') this.onBytes(key, r, sent);
      },
      onResume: (offset) => {
        if (this.get(key)?.status === 'uploading' && offset > 0) this.update(key, { resumedFrom: offset, sent: offset });
      },
      onRetry: (attempt) => {
        const r = this.runtime.get(key);
        if (!r || this.get(key)?.status !== 'uploading') return;
        r.samples = [];
        this.update(key, { retrying: attempt, speed: null, eta: null });
      },
      onSuccess: (uploadId, result) => {
        const r = this.runtime.get(key);
        if (!r || this.get(key)?.status !== 'uploading') return;
        this.update(key, { status: 'finishing', sent: item.file.size, uploadId, speed: null, eta: 0 });
        if (result) this.finish(key, result);
        else void this.fetchResult(key, uploadId, r.run);
        this.pump();
      },
      onError: (error) => {
        if (this.get(key)?.status !== 'uploading') return;
        this.update(key, { status: 'failed', error, speed: null, eta: null, retrying: null });
        this.pump();
      },
    });
    if (live()) rt.transfer.start();
  }

  private async fetchResult(key: string, uploadId: string, run: number) {
    try {
      const result = await this.deps.fetchResult(uploadId);
      if (this.runtime.get(key)?.run !== run) return;
      this.finish(key, result);
    } catch (err) {
      if (this.runtime.get(key)?.run !== run) return;
      this.update(key, { status: 'failed', error: { kind: 'result', message: (err as Error).message } });
    }
  }

  private finish(key: string, result: UploadResult) {
    this.update(key, { status: result.status === 'created' ? 'done' : 'duplicate', material: result.material, error: null });
  }

  private onBytes(key: string, rt: Runtime, sent: number) {
    const item = this.get(key)!;
    const t = this.deps.now();
    rt.samples.push({ t, sent });
    while (rt.samples.length > 2 && t - rt.samples[0]!.t > this.speedWindowMs) rt.samples.shift();
    const first = rt.samples[0]!;
    const elapsed = (t - first.t) / 1000;
    // Under a second of samples says little; keep the last figure until there is more.
    const speed = elapsed >= 1 ? Math.max(0, (sent - first.sent) / elapsed) : item.speed;
    const eta = speed ? Math.ceil((item.file.size - sent) / speed) : null;
    if (item.retrying !== null) this.patch(key, { retrying: null });
    this.progress(key, { sent, speed, eta });
  }

  // ---- state ---------------------------------------------------------------------------------

  private update(key: string, patch: Partial<UploadItem>) {
    this.patch(key, patch);
    this.emit();
  }

  /** A progress change: published at most every progressIntervalMs, with a trailing publish. */
  private progress(key: string, patch: Partial<UploadItem>) {
    this.patch(key, patch);
    const now = this.deps.now();
    if (now - this.lastEmit >= this.progressIntervalMs) this.emit();
    else this.trailing ??= setTimeout(() => this.emit(), this.progressIntervalMs);
  }

  private patch(key: string, patch: Partial<UploadItem>) {
    this.items = this.items.map((i) => (i.key === key ? { ...i, ...patch } : i));
  }

  private emit() {
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = null;
    this.lastEmit = this.deps.now();
    for (const l of this.listeners) l();
  }
}
