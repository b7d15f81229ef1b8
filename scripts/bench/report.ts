/** Shared output of the bench scripts: one aligned result line per measurement, goal and ratio. */

import { parseCommandLine } from '../../src/server/command-line.mjs';

export const seconds = (s: number): string => `${s.toFixed(s < 10 ? 2 : 1)} s`;

/**
 * Prints `name: measured (goal), ratio ×, PASS|MISS`. `ratio` is measured/goal for times
 * (lower is better) and candidate/baseline for throughput (higher is better); `ratioNote` says which.
 */
export function printResult(name: string, measured: string, goal: string, ratio: number, met: boolean, ratioNote: string): void {
  console.log(
    `  RESULT ${name}: ${measured} (goal ${goal}) — ratio ${ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2)}× ${ratioNote} — ${met ? 'goal met' : 'GOAL MISSED'}`,
  );
}

/**
 * The command line of a bench script: none but `--help` (the knobs are environment variables), so
 * `npm run bench:x -- --help` explains it and anything else is refused before the bench starts.
 */
export function benchCommandLine(script: string, summary: string, env: [string, string][] = []): void {
  parseCommandLine({
    name: `npm run ${script}`,
    summary: [summary, 'It reports against its goal and does not assert: exit 0 whatever the numbers, non-zero only when something failed.'],
    env,
    examples: [`npm run ${script}`],
  });
}
