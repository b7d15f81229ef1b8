/**
 * Every way the product starts the server gives V8 the same flags: `npm start`, `npm run serve`,
 * the offline package's `bin/portal start`, the tests' built server and the concurrency bench
 * (which must measure the server as `npm start` runs it). Each flag keeps an idle server smaller
 * (docs/benchmarks.md): V8's default young generation (2 × 16 MB semispaces) stayed resident,
 * ~24 MB more than 2 × 4 MB; the embedded database's WebAssembly compiled whole at start kept
 * ~20 MB of machine code for functions it never calls; four V8 helper threads instead of one left
 * ~30 MB in their malloc arenas. A start path without them would quietly bring that back.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const FLAG = '--max-semi-space-size=4 --wasm-lazy-compilation --v8-pool-size=1';
const FLAGS = FLAG.split(' ');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the V8 flags the server starts with', () => {
  it('are the same on every start path', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toContain(`node ${FLAG} scripts/start.mjs`);
    expect(scripts.serve).toContain(`node ${FLAG} --enable-source-maps dist/server.mjs`);
    expect(read('scripts/package/portal')).toMatch(new RegExp(`exec "\\$NODE" ${FLAG} --enable-source-maps "\\$HOME_DIR/dist/server\\.mjs"`));
    expect(read('tests/support/server.ts')).toContain(`${FLAGS.map((f) => `'${f}'`).join(', ')}, '--enable-source-maps', entry`);
    expect(read('scripts/bench/concurrency.ts')).toContain(FLAGS.map((f) => `'${f}'`).join(', '));
  });

  it('are accepted by this Node.js and cap the young generation', () => {
    const young = spawnSync(process.execPath, [...FLAGS, '-e', YOUNG_SIZE], { encoding: 'utf8' });
    expect(young.status, young.stderr).toBe(0);
    const youngDefault = spawnSync(process.execPath, ['-e', YOUNG_SIZE], { encoding: 'utf8' });
    expect(Number(young.stdout)).toBeLessThanOrEqual(8);
    expect(Number(youngDefault.stdout)).toBeGreaterThan(Number(young.stdout));
  });
});

/** Allocates enough short- and medium-lived objects to grow the young generation to its cap; prints its committed MB. */
const YOUNG_SIZE = `
const keep = [];
for (let i = 0; i < 400000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 200000) keep.length = 0; }
const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
process.stdout.write(String(space.space_size / 1048576));
`;
