/**
 * A test file's own server whose text messages the test can read, and one browser page: for the
 * open journeys that need SMS codes (registration, password reset, the simple declaration).
 * `startSmsSuite()` starts both before the file's tests and stops them after; the codes are read
 * where the outbox provider writes them, the server log (LOG_LEVEL=debug: the text with the code is
 * logged at debug only), so the suite's shared server and its demo accounts are untouched.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { forwarding } from '../../support/forward';
import { startServer, type StartedServer } from '../../support/server';
import { openPage } from './browser';

/** A text message as the outbox provider logs it at debug. */
interface Sent {
  mobile: string;
  purpose: string;
  text: string;
  /** When it was logged (ms since the epoch). */
  time: number;
}

/** Codes a mobile may be sent: one a minute (services/sms.ts PER_MINUTE), plus a margin. */
const CODE_INTERVAL_MS = 61_000;

export interface SmsSuite {
  /** The file's server (valid inside its tests and hooks). */
  server: StartedServer;
  /** The file's page (valid inside its tests and hooks). */
  page: Page;
  /** The text of the newest message of `purpose` to `mobile` (to anyone when absent), or null. */
  lastMessage(purpose: string, mobile?: string): string | null;
  /** The code of the newest message of `purpose` to `mobile` (to anyone when absent), logged at `since` (ms) or later, once it is there. */
  codeFor(mobile: string | undefined, purpose: string, since?: number): Promise<string>;
  /** Waits until `mobile` may be sent another code (the server sends one a minute and swallows the rest where it must not tell). */
  codeAllowed(mobile: string): Promise<void>;
}

export function startSmsSuite(viewport?: { width: number; height: number }): SmsSuite {
  const opened: { server?: StartedServer; page?: Page; close?: () => Promise<void> } = {};
  beforeAll(async () => {
    opened.server = await startServer({ env: { LOG_LEVEL: 'debug', PORTAL_SMS_PROVIDER: 'outbox' } });
    const { browser, page } = await openPage();
    opened.close = () => browser.close();
    page.setDefaultTimeout(45_000);
    if (viewport) await page.setViewportSize(viewport);
    opened.page = page;
  }, 240_000);
  afterAll(async () => {
    await opened.close?.();
    await opened.server?.stop();
  });

  const sent = (purpose?: string, mobile?: string): Sent[] =>
    opened
      .server!.output()
      .split('\n')
      .filter((l) => l.includes('"sms"'))
      .map((l) => JSON.parse(l.slice(l.indexOf('{'))) as { time: number; sms: Omit<Sent, 'text' | 'time'> & { text?: string } })
      .flatMap(({ time, sms }) => (sms.text === undefined ? [] : [{ ...sms, text: sms.text, time }]))
      .filter((m) => (!purpose || m.purpose === purpose) && (!mobile || m.mobile === mobile));
  const lastMessage = (purpose: string, mobile?: string, since = 0) =>
    sent(purpose, mobile)
      .filter((m) => m.time >= since)
      .at(-1)?.text ?? null;

  return {
    server: forwarding(() => opened.server, "the suite's server"),
    page: forwarding(() => opened.page, "the suite's page"),
    lastMessage: (purpose, mobile) => lastMessage(purpose, mobile),
    async codeFor(mobile, purpose, since) {
      let code: string | undefined;
      await expect.poll(() => (code = /验证码为(\d{6})/.exec(lastMessage(purpose, mobile, since) ?? '')?.[1])).toBeTruthy();
      return code!;
    },
    async codeAllowed(mobile) {
      const last = sent(undefined, mobile)
        .filter((m) => m.text.includes('验证码为'))
        .at(-1);
      const wait = last ? last.time + CODE_INTERVAL_MS - Date.now() : 0;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    },
  };
}
