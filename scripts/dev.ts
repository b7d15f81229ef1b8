/**
 * `npm run dev`: the API server (restarted on change by tsx watch) plus the Vite dev server with the
 * API base path proxied to it. Open the Vite URL it prints (http://127.0.0.1:5173 by default).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { parseCommandLine } from '../src/server/command-line.mjs';

parseCommandLine({
  name: 'npm run dev',
  summary: [
    'Runs the API server (restarted on change by tsx watch) and the Vite dev server with the API base path proxied to it. Open the Vite URL it prints (http://127.0.0.1:5173 by default).',
  ],
  env: [['PORT', "the API server's port (default 8080)"]],
  examples: ['npm run dev', 'PORT=9000 npm run dev'],
});

const apiPort = process.env.PORT ?? '8080';
const children: ChildProcess[] = [];

function run(args: string[], env: NodeJS.ProcessEnv): void {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    for (const c of children) if (c !== child) c.kill('SIGTERM');
    process.exit(code ?? 0);
  });
  children.push(child);
}

run(['--import', 'tsx', '--watch', 'src/server/main.ts'], { PORT: apiPort, PORTAL_DEV: '1' });
run(['node_modules/vite/bin/vite.js', '--host', '127.0.0.1'], { PORTAL_API_TARGET: `http://127.0.0.1:${apiPort}` });

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    for (const c of children) c.kill(sig);
  });
}
