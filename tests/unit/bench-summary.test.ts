/** `npm run bench`'s summary (scripts/bench/all.ts): every RESULT line the bench scripts print becomes a row. */
import { describe, expect, it } from 'vitest';
import { parseResult, summaryTable } from '../../scripts/bench/all';
import { printResult } from '../../scripts/bench/report';

const printed = (...args: Parameters<typeof printResult>): string => {
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: string) => lines.push(line);
  try {
    printResult(...args);
  } finally {
    console.log = log;
  }
  return lines[0];
};

describe('bench summary', () => {
  it('reads printResult lines, parentheses in the measured value included', () => {
    const line = printed('4 at once, cold cache', '5.10 s, 6.20 s (worst 6.20 s)', '≤ 20 s each', 1.234, true, 'worst / single warm start');
    expect(parseResult('bench:start', line)).toEqual({
      script: 'bench:start',
      name: '4 at once, cold cache',
      measured: '5.10 s, 6.20 s (worst 6.20 s)',
      goal: '≤ 20 s each',
      ratio: '1.23×',
      met: true,
    });
    expect(parseResult('bench:x', printed('login page JS', '251.0 KB', '≤ 250.0 KB', 1.004, false, 'measured / goal'))).toMatchObject({
      name: 'login page JS',
      ratio: '1.00×',
      met: false,
    });
  });

  it('reads RESULT lines written by hand and ignores other lines', () => {
    expect(parseResult('bench:form', '  RESULT first render engine/baseline = 1.05× (goal ≤ 1.2×, ratio of the medians) — goal met')).toEqual({
      script: 'bench:form',
      name: 'first render engine/baseline',
      measured: '1.05×',
      goal: '≤ 1.2×',
      ratio: '1.05×',
      met: true,
    });
    expect(
      parseResult('bench:form', 'RESULT keystroke median engine = 9.0 ms, baseline = 8.0 ms, ratio 1.13× (goal < 16 ms and ≤ 1.2×) — GOAL MISSED'),
    ).toMatchObject({ ratio: '1.13×', goal: '< 16 ms and ≤ 1.2×', met: false });
    expect(parseResult('bench:start', '  first run (builds when out of date): 9.00 s')).toBeNull();
  });

  it('tables every row with PASS or MISS and counts them', () => {
    const rows = [parseResult('a', printed('one', '1 s', '≤ 2 s', 0.5, true, 'm/g'))!, parseResult('b', printed('two', '3 s', '≤ 2 s', 1.5, false, 'm/g'))!];
    const table = summaryTable(rows, ['bench:c (exit 1)']).split('\n');
    expect(table[0]).toMatch(/^bench +\| result +\| measured +\| goal +\| ratio +\| met$/);
    expect(table[2]).toMatch(/^a +\| one +\| 1 s +\| ≤ 2 s +\| 0\.50× +\| PASS$/);
    expect(table[3]).toMatch(/\| MISS$/);
    expect(table.at(-1)).toBe('2 results: 1 goals met, 1 missed; failed: bench:c (exit 1)');
  });
});
