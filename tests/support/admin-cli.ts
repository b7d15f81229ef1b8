/** Runs the account CLI (`npm run admin`'s entry, through tsx) as an operator would, with `input` piped on standard input. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `env` is added to this process's environment; DATABASE_URL is dropped unless `env` gives it (the embedded database). */
export function runAdmin(args: string[], env: Record<string, string>, input = ''): Promise<CliRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { cwd: ROOT, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
  child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
  child.stdin.end(input);
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}
