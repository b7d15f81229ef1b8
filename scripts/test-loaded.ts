/**
 * `npm run test:loaded` — `npm test` several times in a row while other processes keep every core
 * busy: the check that the tests hold on a loaded machine (a timeout sized for a quiet one, a race
 * a slow render exposes). One busy loop per core by default, at normal priority, started before
 * each run and stopped after it. Stops at the first run that fails. Prints, per run, its exit
 * status, its minutes and the load average seen during it (every 15 s), then one line for all.
 *
 *   npm run test:loaded                   three runs, one busy loop per core
 *   npm run test:loaded -- --runs 1 --busy 4
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, type CommandSpec } from '../src/server/command-line.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const spec: CommandSpec = {
  name: 'npm run test:loaded',
  summary: [
    'Runs `npm test` several times in a row, each with busy processes beside it that keep the cores busy (one endless loop per core by default, at normal priority). Stops at the first failing run. Prints the exit status of each run, its minutes and load average, then a summary line; exits 1 when a run failed.',
  ],
  options: {
    runs: { type: 'string', value: 'N', number: 'positive', description: 'how many runs in a row (default 3)' },
    busy: {
      type: 'string',
      value: 'N',
      number: 'positive',
      description: `how many busy loops beside each run (default: one per core, here ${availableParallelism()})`,
    },
  },
  examples: ['npm run test:loaded', 'npm run test:loaded -- --runs 1 --busy 4'],
};

const { values } = parseCommandLine(spec);
const runs = Number(values.runs ?? 3);
const busy = Number(values.busy ?? availableParallelism());

const loops = new Set<ChildProcess>();
let tests: ChildProcess | undefined;
const stopLoops = () => {
  for (const loop of loops) loop.kill('SIGKILL');
  loops.clear();
};
process.once('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    stopLoops();
    tests?.kill(signal);
    process.exit(130);
  });

function runTests(): Promise<number> {
  return new Promise((resolve) => {
    tests = spawn('npm', ['test'], { cwd: ROOT, stdio: 'inherit' });
    tests.once('close', (code) => resolve(code ?? 1));
  });
}

const summary = (loads: number[]) => {
  const sorted = [...loads].sort((a, b) => a - b);
  return sorted.length ? `${sorted[0].toFixed(1)}–${sorted.at(-1)!.toFixed(1)}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)}` : 'not sampled';
};

const results: string[] = [];
let failed = false;
for (let run = 1; run <= runs && !failed; run++) {
  for (let i = 0; i < busy; i++) loops.add(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(loadavg()[0]), 15_000);
  const started = performance.now();
  console.log(`\n=== test:loaded run ${run} of ${runs}, ${busy} busy loops beside it`);
  const status = await runTests();
  clearInterval(sampler);
  stopLoops();
  failed = status !== 0;
  const line = `run ${run}: ${failed ? `FAILED (exit ${status})` : 'passed'} in ${((performance.now() - started) / 60_000).toFixed(1)} min, load average ${summary(loads)}`;
  results.push(line);
  console.log(`=== ${line}`);
}

console.log(`\n=== test:loaded: ${results.filter((r) => r.includes('passed')).length} of ${runs} runs passed in a row, ${busy} busy loops beside each`);
for (const line of results) console.log(`    ${line}`);
process.exitCode = failed ? 1 : 0;
