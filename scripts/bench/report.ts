/** Shared output of the bench scripts: one aligned result line per measurement, goal and ratio. */

export const seconds = (s: number): string => `${s.toFixed(s < 10 ? 2 : 1)} s`;

/**
 * Prints `name: measured (goal), ratio ×, PASS|MISS`. `ratio` is measured/goal for times
 * (lower is better) and candidate/baseline for throughput (higher is better); `ratioNote` says which.
 */
export function printResult(name: string, measured: string, goal: string, ratio: number, met: boolean, ratioNote: string): void {
  console.log(`  RESULT ${name}: ${measured} (goal ${goal}) — ratio ${ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2)}× ${ratioNote} — ${met ? 'goal met' : 'GOAL MISSED'}`);
}
