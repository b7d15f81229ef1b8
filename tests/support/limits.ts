/**
 * The server's rate limits opened wide for tests that sign in many times a minute from one address
 * (every API and e2e suite); the tests of the limits themselves build their app with low ones.
 */
import { SETTINGS, type Config } from '../../src/server/config';

const OPEN = 100_000;

export const OPEN_LIMITS = {
  loginRateLimit: OPEN,
  loginAccountRateLimit: OPEN,
  loginIpAccountRateLimit: OPEN,
  captchaRateLimit: OPEN,
  errorLogRateLimit: OPEN,
} satisfies Partial<Config>;

/** The same, as the environment of a server process. */
export const OPEN_LIMIT_ENV: Record<string, string> = Object.fromEntries(
  SETTINGS.filter((s) => s.key in OPEN_LIMITS).map((s) => [s.env, String(OPEN_LIMITS[s.key as keyof typeof OPEN_LIMITS])]),
);
