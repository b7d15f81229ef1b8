/**
 * The first-load budget: the JavaScript a new visitor's browser receives (transferred bytes,
 * i.e. after content encoding, no cache), for the login page and for the login page plus the first
 * shell page after signing in. Bytes, not time: the same build always weighs the same.
 * Over budget? Look at the per-script list in the failure message; `npm run bench:first-load` prints
 * it too. Keep antd components out of the login path (lazy pages, no antd chunk group in vite.config.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { FIRST_LOAD_BUDGET, measureFirstLoad, type FirstLoad } from './support/transfer';

const baseURL = inject('baseURL');

const listing = (load: FirstLoad) =>
  [...load.login.scripts.map((s) => ({ ...s, phase: 'login' })), ...load.shell.scripts.map((s) => ({ ...s, phase: 'shell' }))]
    .sort((a, b) => b.bytes - a.bytes)
    .map((s) => `${s.phase} ${s.bytes} ${s.encoding} ${s.path}`)
    .join('\n');

describe('first load', () => {
  it('sends the login page and the first shell page compressed, within the JavaScript budget', async () => {
    const load = await measureFirstLoad(baseURL, 'nbadmin');
    const all = [...load.login.scripts, ...load.shell.scripts];
    // Every script of any size comes precompressed (brotli: Chromium accepts it from 127.0.0.1).
    expect(
      all.filter((s) => s.bytes > 1024 && s.encoding !== 'br'),
      listing(load),
    ).toEqual([]);
    expect(load.login.js, `login page JavaScript over ${FIRST_LOAD_BUDGET.login} bytes:\n${listing(load)}`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.login);
    expect(
      load.login.js + load.shell.js,
      `login + first shell page JavaScript over ${FIRST_LOAD_BUDGET.loginAndShell} bytes:\n${listing(load)}`,
    ).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.loginAndShell);
    // The shell page really was reached and needed code of its own (the measurement is not empty).
    expect(load.shell.js).toBeGreaterThan(0);
  });
});
