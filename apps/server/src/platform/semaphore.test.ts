import { describe, expect, it } from 'vitest';
import { KeyedSemaphores } from './semaphore.ts';

describe('KeyedSemaphores', () => {
  it('holds callers beyond the limit per key and serves them in order', async () => {
    const slots = new KeyedSemaphores(2);
    const order: string[] = [];
    const a = await slots.acquire('k');
    const b = await slots.acquire('k');
    const other = await slots.acquire('other');
    const c = slots.acquire('k').then((release) => (order.push('c'), release));
    const d = slots.acquire('k').then((release) => (order.push('d'), release));
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    a(); // a second release of the same slot changes nothing
    (await c)();
    b();
    (await d)();
    other();
    expect(order).toEqual(['c', 'd']);
  });

  it('drops a waiter whose signal aborts, without losing the slot', async () => {
    const slots = new KeyedSemaphores(1);
    const held = await slots.acquire('k');
    const controller = new AbortController();
    const waiting = slots.acquire('k', controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    held();
    const again = await slots.acquire('k');
    again();
  });

  it('refuses a limit below one', () => {
    expect(() => new KeyedSemaphores(0)).toThrow(RangeError);
  });
});
