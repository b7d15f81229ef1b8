/**
 * The collection run once a server is ready (src/server/start-garbage.ts): it runs, and leaves
 * `gc` exposed nowhere, neither here nor in a context made afterwards.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectStartGarbage } from '../../src/server/start-garbage';

describe('collectStartGarbage', () => {
  it('collects the garbage of an idle process and leaves gc unexposed', () => {
    const exposedBefore = typeof (globalThis as { gc?: unknown }).gc;
    let garbage: Uint8Array[] | null = Array.from({ length: 64 }, () => new Uint8Array(1 << 20).fill(1));
    const held = process.memoryUsage().arrayBuffers;
    garbage = null;
    expect(garbage).toBeNull();
    expect(collectStartGarbage()).toBe(true);
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(held - 32 * (1 << 20));
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(exposedBefore);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
