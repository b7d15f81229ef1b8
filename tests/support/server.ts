/**
 * Starts the real server the way the README does (`npm start` after its front-end build: the
 * server bundle dist/server.mjs, built by scripts/build-server.ts, run by plain node) in a child
 * process, and waits for its
 * "Portal ready: <url>" banner. It fails fast, with the server's own output in the error, when the
 * process exits, when it prints nothing for `stallMs` (a start-up step that makes no progress), or
 * when it is not ready within `limitMs`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../scripts/build-server';
import { OPEN_LIMIT_ENV } from './limits';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let bundle: Promise<string> | null = null;
/** The server bundle, built once per test process from the current sources. */
const serverBundle = (): Promise<string> => (bundle ??= buildServer());

export interface StartOptions {
  /** Extra environment (PORTAL_* settings); DATABASE_URL is removed unless given here (then PORTAL_DEMO=on unless given). */
  env?: Record<string, string>;
  /** The PGlite data directory; default a new temporary one, removed on stop. */
  dataDir?: string;
  /** Fail when the server prints nothing for this long (default 90 s). */
  stallMs?: number;
  /** Fail when the server is not ready after this long (default 240 s). */
  limitMs?: number;
}

export interface StartedServer {
  baseURL: string;
  dataDir: string;
  /** The server process id (memory readings). */
  pid: number;
  /** Milliseconds from spawn to the ready banner. */
  readyMs: number;
  /** Everything the server printed so far. */
  output(): string;
  /** Resolves when the process has ended: its exit status, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or an OOM killer would: no shutdown step runs; the data directory stays. */
  kill(): Promise<void>;
}

export async function startServer(options: StartOptions = {}): Promise<StartedServer> {
  const { stallMs = 90_000, limitMs = 240_000 } = options;
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-server-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PORTAL_DATA_DIR: dataDir,
    PORTAL_CAPTCHA: 'off',
    ...OPEN_LIMIT_ENV,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORTAL_SCHEMAS: 'lazy',
  };
  delete env.DATABASE_URL; // the embedded default, as a new user starts it
  Object.assign(env, options.env);
  // The tests log in as the demo accounts: a PostgreSQL server gets them only when asked (production default).
  if (options.env?.DATABASE_URL && options.env.PORTAL_DEMO === undefined) env.PORTAL_DEMO = 'on';
  const entry = await serverBundle();
  const started = Date.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=4', '--wasm-lazy-compilation', '--v8-pool-size=1', '--enable-source-maps', entry], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  };

  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };

  try {
    const baseURL = await new Promise<string>((resolve, reject) => {
      let stall: NodeJS.Timeout;
      const fail = (why: string) => {
        clearTimeout(stall);
        clearTimeout(limit);
        reject(new Error(`server ${why} (${((Date.now() - started) / 1000).toFixed(1)} s after spawn); its output:\n${output}`));
      };
      const watch = () => {
        clearTimeout(stall);
        stall = setTimeout(() => fail(`printed nothing for ${stallMs / 1000} s: start-up is stuck`), stallMs);
      };
      const limit = setTimeout(() => fail(`was not ready within ${limitMs / 1000} s`), limitMs);
      const onData = (chunk: Buffer) => {
        output += String(chunk);
        watch();
        const ready = /Portal ready: (http:\/\/\S+)/.exec(output);
        if (ready) {
          clearTimeout(stall);
          clearTimeout(limit);
          resolve(ready[1]);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
      watch();
    });
    const readyMs = Date.now() - started;
    const answer = await fetch(`${baseURL}/espServer/a/stone/common/appConfig`);
    if (!answer.ok) throw new Error(`server is up but appConfig answered ${answer.status}; its output:\n${output}`);
    return { baseURL, dataDir, pid: child.pid!, readyMs, output: () => output, exited, stop, kill };
  } catch (err) {
    await stop();
    throw err;
  }
}
