import { endpoints } from '@ads/contracts';

import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import { api } from '@/lib/api-client';
import { md5File } from './md5-file';
import { createTusTransfer } from './tus-transfer';
import { isActive, UploadQueue, type UploadDeps, type UploadQueueOptions } from './upload-queue';

/** How often files that stopped on a network failure are tried again (besides the browser's "online" event). */
const NETWORK_RETRY_MS = 30_000;

let shared: UploadQueue | null = null;

/** A queue over the real hasher, tus and server checks; tests replace the parts they drive. */
export function createUploadQueue(overrides: Partial<UploadDeps> = {}, opts?: UploadQueueOptions): UploadQueue {
  return new UploadQueue(
    {
      hash: md5File,
      checkHash: (md5) => api.call(endpoints.materials.check_hash, { md5 }, { quiet: true }).then((r) => r.material),
      createTransfer: createTusTransfer,
      fetchResult: (uploadId) => api.call(endpoints.materials.upload_result, { upload_id: uploadId }, { quiet: true }),
      now: () => Date.now(),
      ...overrides,
    },
    opts,
  );
}

/**
 * The one upload queue of the page load: it lives outside React so uploads go on while the user
 * moves between screens, and is created with the first screen that uploads.
 */
function sharedQueue(): UploadQueue {
  if (shared) return shared;
  const queue = createUploadQueue();
  window.addEventListener('online', () => queue.retryNetworkFailures());
  setInterval(() => queue.retryNetworkFailures(), NETWORK_RETRY_MS);
  // Closing the tab loses nothing (the same files resume when dropped again), but say so first.
  window.addEventListener('beforeunload', (e) => {
    if (queue.getSnapshot().some(isActive)) e.preventDefault();
  });
  shared = queue;
  return queue;
}

/** Tests put a queue with fake dependencies here; the app uses the shared one. */
export const UploadQueueContext = createContext<UploadQueue | null>(null);

/** The upload queue and its current entries (re-rendering as they change). */
export function useUploadQueue() {
  const injected = useContext(UploadQueueContext);
  const queue = injected ?? sharedQueue();
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  return { queue, items };
}

/** Calls `onFinished` with each material an upload of this queue creates or finds, once. */
export function useOnUploadFinished(queue: UploadQueue, onFinished: () => void) {
  useEffect(() => {
    let seen = new Set(queue.getSnapshot().filter((i) => i.material).map((i) => i.key));
    return queue.subscribe(() => {
      const withMaterial = queue.getSnapshot().filter((i) => i.material);
      if (withMaterial.some((i) => !seen.has(i.key))) onFinished();
      seen = new Set(withMaterial.map((i) => i.key));
    });
  }, [queue, onFinished]);
}
