/**
 * What the server benches share: a server started in its own process (autocannon must never share
 * its event loop), a real login, and a throw-away PostgreSQL database next to DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { DEMO_ACCOUNTS, DEMO_UNITS } from '../../src/server/db/seed';
import { API } from '../../src/shared/contract';

export interface Server {
  /** What the ready line captured (the server's address or API prefix). */
  prefix: string;
  process: ChildProcess;
}

/**
 * Runs `node --import tsx <args>` (`tsx: false`: plain `node <args>`) and resolves once a line of
 * its output matches `ready` (group 1: the address). Every output line is read (a server logging
 * to a pipe nobody drains would stall).
 */
export function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, { tsx = true } = {}): Promise<Server> {
  const child = spawn(process.execPath, [...(tsx ? ['--import', 'tsx'] : []), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with code ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = ready.exec(line);
      if (match) resolve({ prefix: match[1], process: child });
    });
  });
}

/** Stops the servers (SIGTERM) and waits until each has exited. */
export async function stopProcesses(servers: readonly Server[]): Promise<void> {
  for (const s of servers) s.process.kill('SIGTERM');
  await Promise.all(
    servers.map(async (s) => (s.process.exitCode === null && s.process.signalCode === null ? new Promise((r) => s.process.once('exit', r)) : undefined)),
  );
}

/**
 * A real login (captcha off) of the demo account of `orgCode` (default: the using unit's main
 * account): RSA-OAEP-encrypted credentials, as the browser sends them. Returns the session id.
 */
export async function login(apiPrefix: string, orgCode: string = DEMO_UNITS.using.orgcode): Promise<string> {
  const account = DEMO_ACCOUNTS.find((a) => a.orgCode === orgCode)!;
  const { data } = (await (await fetch(`${apiPrefix}${API.publicKey}`)).json()) as { data: { publicKey: string } };
  const encrypt = (text: string) =>
    publicEncrypt({ key: data.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text)).toString('base64');
  const form = new URLSearchParams({
    username: encrypt(account.loginName),
    password: encrypt(account.password),
    orgCode: encrypt(account.orgCode),
    validateCode: '',
    __ajax: 'json',
  });
  const reply = (await (await fetch(`${apiPrefix}${API.login}`, { method: 'POST', body: form })).json()) as {
    result: string;
    message: string;
    sessionid?: string;
  };
  if (reply.result !== 'true' || !reply.sessionid) throw new Error(`login failed: ${reply.message}`);
  return reply.sessionid;
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Whether DATABASE_URL names a reachable PostgreSQL; prints why not (SKIPPED) and returns null
 * otherwise, else the URL.
 */
export async function reachablePostgres(what: string): Promise<string | null> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.log(`  SKIPPED ${what}: DATABASE_URL is not set (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres)`);
    return null;
  }
  try {
    await withClient(adminUrl, (c) => c.query('SELECT 1'));
    return adminUrl;
  } catch (err) {
    console.log(`  SKIPPED ${what}: PostgreSQL at DATABASE_URL is unreachable (${(err as Error).message})`);
    return null;
  }
}

/** A new database `<prefix>_<random>` on the server of `adminUrl`: its URL and how to drop it. */
export async function throwAwayDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString(),
    drop: () =>
      withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
        (err: Error) => console.error(`  could not drop ${name}: ${err.message}`),
      ),
  };
}

/**
 * A bench's clean-up, run once: when the run ends (the caller's `finally`) or, first, when
 * `deadlineMs` passes (then it says so and the process exits 1, the processes and databases gone).
 */
export function cleanupOnce(deadlineMs: number, steps: () => Promise<void>): () => Promise<void> {
  let cleaned = false;
  const cleanup = async (): Promise<void> => {
    if (cleaned) return;
    cleaned = true;
    clearTimeout(deadline);
    await steps();
  };
  const deadline = setTimeout(() => {
    console.error(`  ABORTED: over ${deadlineMs / 60_000} minutes`);
    process.exitCode = 1;
    void cleanup().then(() => process.exit(1));
  }, deadlineMs);
  return cleanup;
}
