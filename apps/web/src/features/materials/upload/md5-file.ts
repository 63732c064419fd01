import { MD5_HEX_PATTERN } from '@ads/contracts/core';
import { createMD5 } from 'hash-wasm';

/** Bytes read and hashed per step: large enough to be fast, small enough to keep the page responsive. */
const SLICE_BYTES = 4 * 1024 ** 2;
const CACHE_KEY = 'material-md5-cache';
const CACHE_MAX = 200;

/** The file's identity without reading it, as tus fingerprints it. */
const fileKey = (file: File) => `${file.name}|${file.size}|${file.lastModified}`;

function readCache(): Record<string, string> {
  try {
    const parsed = JSON.parse(localStorage.getItem(CACHE_KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function remember(file: File, md5: string) {
  try {
    const cache = readCache();
    delete cache[fileKey(file)];
    cache[fileKey(file)] = md5;
    const keys = Object.keys(cache);
    for (const k of keys.slice(0, Math.max(0, keys.length - CACHE_MAX))) delete cache[k];
    localStorage.setItem(CACHE_KEY, JSON.stringify(cache));
  } catch {
    // A full or blocked storage only costs hashing again next time.
  }
}

/**
 * md5 hex of a file, read in slices with hash-wasm's incremental hasher, reporting bytes done.
 * Remembered per file (name, size, modification time), so re-dropping a file after a closed tab
 * resumes its upload without hashing hundreds of megabytes again.
 */
export async function md5File(file: File, onProgress: (bytes: number) => void, signal: AbortSignal): Promise<string> {
  const cached = readCache()[fileKey(file)];
  if (cached && MD5_HEX_PATTERN.test(cached)) {
    onProgress(file.size);
    return cached;
  }
  const hasher = await createMD5();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += SLICE_BYTES) {
    signal.throwIfAborted();
    const bytes = new Uint8Array(await file.slice(offset, offset + SLICE_BYTES).arrayBuffer());
    hasher.update(bytes);
    onProgress(Math.min(file.size, offset + SLICE_BYTES));
    // Let the page paint and handle input between slices.
    await new Promise((r) => setTimeout(r, 0));
  }
  signal.throwIfAborted();
  const md5 = hasher.digest('hex');
  remember(file, md5);
  return md5;
}
