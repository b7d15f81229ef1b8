/**
 * `npm run bench` — every benchmark in one run: each `bench:*` script of package.json in its
 * order there (a script added to package.json joins the run by itself), its output passed through
 * as it comes, then a summary table of every RESULT line they printed (scripts/bench/report.ts
 * printResult, or a line of the same spirit: `RESULT <name> … (goal …) … — goal met|GOAL MISSED`):
 * name, measured, goal, ratio, met. A script that exits non-zero is listed as failed and the run
 * goes on; the exit status is then 1. Goals are reported, never asserted: a missed goal exits 0.
 *
 *   npm run bench                        all of them
 *   npm run bench -- first-load start    only bench:first-load and bench:start
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT_USAGE, parseCommandLine, usageLine, UsageError, type CommandSpec } from '../../src/server/command-line.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ResultRow {
  script: string;
  name: string;
  measured: string;
  goal: string;
  ratio: string;
  met: boolean;
}

// printResult: `RESULT <name>: <measured> (goal <goal>) — ratio <r>× <note> — goal met|GOAL MISSED`
const PRINT_RESULT = /RESULT (.+?): (.*) \(goal (.*?)\) — ratio (\S+?)×.* — (goal met|GOAL MISSED)\s*$/;
// Other RESULT lines: `RESULT <name> = <measured> (goal <goal>[, …]) … — goal met|GOAL MISSED`
const OTHER_RESULT = /RESULT (.*?)(?: = |: )(.*?) \(goal ([^,)]*)[^)]*\).* — (goal met|GOAL MISSED)\s*$/;

/** The RESULT line `line` as a summary row (null: not a RESULT line). */
export function parseResult(script: string, line: string): ResultRow | null {
  const printed = PRINT_RESULT.exec(line);
  if (printed) {
    const [, name, measured, goal, ratio, met] = printed;
    return { script, name, measured, goal, ratio: `${ratio}×`, met: met === 'goal met' };
  }
  const other = OTHER_RESULT.exec(line);
  if (!other) return null;
  const [, name, measured, goal, met] = other;
  const ratio = /ratio ([\d.]+×)/.exec(line)?.[1] ?? /([\d.]+×)/.exec(measured)?.[1] ?? '—';
  return { script, name, measured, goal, ratio, met: met === 'goal met' };
}

/** The summary table, columns padded to their widest cell. */
export function summaryTable(rows: ResultRow[], failed: string[]): string {
  const header = ['bench', 'result', 'measured', 'goal', 'ratio', 'met'];
  const cells = rows.map((r) => [r.script, r.name, r.measured, r.goal, r.ratio, r.met ? 'PASS' : 'MISS']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((cell, i) => cell.padEnd(widths[i]))
      .join(' | ')
      .trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)];
  const missed = rows.filter((r) => !r.met).length;
  out.push('', `${rows.length} results: ${rows.length - missed} goals met, ${missed} missed${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
  return out.join('\n');
}

/** Runs `npm run <script>`, echoing its output; resolves to its RESULT rows and exit status. */
function runScript(script: string): Promise<{ rows: ResultRow[]; status: number }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const rows: ResultRow[] = [];
    const pending = { stdout: '', stderr: '' };
    const hear = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      process[stream].write(chunk);
      const lines = (pending[stream] + String(chunk)).split('\n');
      pending[stream] = lines.pop()!;
      for (const l of lines) {
        const row = parseResult(script, l);
        if (row) rows.push(row);
      }
    };
    child.stdout.on('data', hear('stdout'));
    child.stderr.on('data', hear('stderr'));
    child.once('close', (code) => {
      for (const l of [pending.stdout, pending.stderr]) {
        const row = parseResult(script, l);
        if (row) rows.push(row);
      }
      resolve({ rows, status: code ?? 1 });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };
  const benches = Object.keys(scripts).filter((s) => s.startsWith('bench:'));
  const spec: CommandSpec = {
    name: 'npm run bench',
    summary: [
      'Runs every benchmark (each bench:* script of package.json, in its order there) or the named ones, passing their output through, then prints a summary table of their RESULT lines: name, measured, goal, ratio, met. Goals are reported, never asserted: exit 1 only when a script failed.',
      `Benchmarks: ${benches.map((b) => b.slice('bench:'.length)).join(', ')}.`,
    ],
    positionals: [{ name: 'bench', description: 'a benchmark to run (list, bench:list, …); default: all of them', variadic: true }],
    examples: ['npm run bench', 'npm run bench -- first-load start'],
  };
  const wanted = parseCommandLine(spec).positionals.map((a) => (a.startsWith('bench:') ? a : `bench:${a}`));
  const unknown = wanted.filter((w) => !benches.includes(w));
  if (unknown.length) {
    console.error(usageLine(spec, new UsageError(`unknown benchmark ${unknown.join(', ')} (known: ${benches.join(', ')})`)));
    process.exit(EXIT_USAGE);
  }
  const chosen = wanted.length ? wanted : benches;
  const rows: ResultRow[] = [];
  const failed: string[] = [];
  const started = performance.now();
  for (const script of chosen) {
    console.log(`\n=== ${script} (${scripts[script]})`);
    const result = await runScript(script);
    rows.push(...result.rows);
    if (result.status !== 0) failed.push(`${script} (exit ${result.status})`);
  }
  console.log(`\n=== summary (${chosen.length} bench scripts, ${((performance.now() - started) / 60_000).toFixed(1)} min)\n`);
  console.log(summaryTable(rows, failed));
  process.exitCode = failed.length ? 1 : 0;
}
