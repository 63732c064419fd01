import { md5 } from 'js-md5';
import { describe, expect, it } from 'vitest';
import { md5File } from './md5-file';

describe('md5 of a file', () => {
  it('hashes in slices, reports progress and remembers the result for the same file', async () => {
    // Over one slice (4 MiB), so the incremental path is exercised.
    const bytes = new Uint8Array(5 * 1024 * 1024 + 123).map((_, i) => (i * 31) % 251);
    const file = new File([bytes], 'big.mp4', { type: 'video/mp4', lastModified: 42 });
    const progress: number[] = [];
    const hex = await md5File(file, (n) => progress.push(n), new AbortController().signal);
    expect(hex).toBe(md5(bytes));
    expect(progress).toEqual([4 * 1024 * 1024, file.size]);

    const again: number[] = [];
    expect(await md5File(file, (n) => again.push(n), new AbortController().signal)).toBe(hex);
    expect(again).toEqual([file.size]);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(md5File(new File(['abc'], 'x.mp4', { lastModified: 1 }), () => undefined, controller.signal)).rejects.toThrow();
  });
});
