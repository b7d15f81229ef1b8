/**
 * The collection run once a server is ready (src/server/start-garbage.ts): it collects what is no
 * longer referenced, and leaves `gc` exposed nowhere, neither here nor in a context made afterwards.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectStartGarbage } from '../../src/server/start-garbage';

describe('collectStartGarbage', () => {
  it('collects the garbage of an idle process and leaves gc unexposed', async () => {
    const exposedBefore = typeof (globalThis as { gc?: unknown }).gc;
    // Unreferenced once made; a WeakRef keeps its target for the rest of the job that made it, hence the turn below.
    const garbage = (() => new WeakRef(new Uint8Array(1 << 20)))();
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectStartGarbage()).toBe(true);
    expect(garbage.deref()).toBeUndefined();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(exposedBefore);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
