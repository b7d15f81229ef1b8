/**
 * One browser per test file, opened before its tests and closed after them: `browserSuite()` on a
 * blank page, `signedInSuite(account)` signed in and on the home page. The returned page forwards
 * to the page of the running suite, so tests use it like a Page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { forwarding } from '../../support/forward';
import { openPage } from './browser';
import { signedInPage } from './shell';

export interface Suite {
  /** The suite's page (valid inside its tests and hooks). */
  page: Page;
  /** The suite's browser. */
  browser: Browser;
  /** The portal's address. */
  baseURL: string;
}

function suite(open: () => Promise<{ browser: Browser; page: Page }>): Suite {
  const opened: { browser?: Browser; page?: Page } = {};
  beforeAll(async () => {
    Object.assign(opened, await open());
  }, 60_000);
  afterAll(() => opened.browser?.close());
  return {
    page: forwarding(() => opened.page, "the suite's page"),
    browser: forwarding(() => opened.browser, "the suite's browser"),
    baseURL: inject('baseURL'),
  };
}

/** A blank page in a fresh browser. */
export const browserSuite = (): Suite => suite(openPage);

/** A fresh browser signed in as a demo account, on its home page. */
export const signedInSuite = (loginName: string): Suite => suite(() => signedInPage(inject('baseURL'), loginName));
