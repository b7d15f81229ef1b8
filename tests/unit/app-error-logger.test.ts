/**
 * The browser's error report (the original error log entry and error handling): a script error goes to save_error_logger as the whole
 * entry — type script, code 0, the message and the page address, plus time, token, userId and
 * userName — and into the local error list.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API } from '../../src/shared/contract';

const post = vi.hoisted(() => vi.fn(() => Promise.resolve(null)));
vi.mock('../../src/app/api', () => ({ post, ApiError: class ApiError extends Error {} }));
vi.mock('../../src/app/session', () => ({
  session: { get: () => ({ token: 'a'.repeat(32), user: { id: 'b'.repeat(32), name: '李娜' } }) },
}));

describe('reportError', () => {
  let logger: typeof import('../../src/app/errorLogger');

  beforeAll(async () => {
    // Reporting is off in development (import.meta.env.DEV), as the original error store was.
    vi.stubEnv('DEV', false);
    vi.stubGlobal('window', { location: { href: 'http://portal.local/equipment/overview?x=1' } });
    logger = await import('../../src/app/errorLogger');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it('sends all eight fields of the entry', () => {
    const before = Date.now();
    logger.reportError(new Error('boom'));
    expect(post).toHaveBeenCalledTimes(1);
    const [path, entry, options] = post.mock.calls[0] as unknown as [string, Record<string, unknown>, unknown];
    expect(path).toBe(API.saveErrorLogger);
    expect(options).toEqual({ silent: true });
    expect(Object.keys(entry).sort()).toEqual(['code', 'mes', 'time', 'token', 'type', 'url', 'userId', 'userName']);
    expect(entry).toMatchObject({
      type: 'script',
      code: 0,
      url: 'http://portal.local/equipment/overview?x=1',
      token: 'a'.repeat(32),
      userId: 'b'.repeat(32),
      userName: '李娜',
    });
    expect(String(entry.mes)).toMatch(/^boom\n/);
    expect(Date.parse(String(entry.time))).toBeGreaterThanOrEqual(before);
  });
});
