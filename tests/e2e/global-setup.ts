/**
 * E2E global setup: build the front end once (unless dist/ already holds a complete build of the
 * current sources — npm ci's prepare step or an `npm start` made it: scripts/build-stamp.mjs), start the real server as the README does
 * (tests/support/server.ts: `tsx src/server/main.ts` on a new embedded PGlite directory, captcha
 * off, a free port) and hand the base URL to the tests through `inject('baseURL')`. A server that
 * exits, stalls or is not ready fails the run at once with its own output.
 */
import type { TestProject } from 'vitest/node';
import { buildFrontEnd } from '../../scripts/build-front-end';
import { isBuilt } from '../../scripts/build-stamp.mjs';
import { startServer } from '../support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD && !isBuilt()) await buildFrontEnd();
  const server = await startServer();
  console.log(`e2e server ready in ${(server.readyMs / 1000).toFixed(1)} s at ${server.baseURL}`);
  project.provide('baseURL', server.baseURL);
  return () => server.stop();
}
