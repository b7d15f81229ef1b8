/**
 * `npm run screens:changed` end to end on the e2e server: a change of the audit log's operation
 * dictionary, given with --files (the shared schemas/ stays untouched), yields exactly the screens
 * showing that field — the audit log list and its detail — each shot as the authority, the one demo
 * role that may open them, with a non-empty PNG, and an index.html naming them and the cause.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'screens-changed-e2e-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function run(args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/screens-changed.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += String(c)));
  child.stderr.on('data', (c: Buffer) => (output += String(c)));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, output })));
}

describe('pictures of changed screens', () => {
  it('shoots exactly the screens a changed dictionary affects, as the roles that may open them', { timeout: 300_000 }, async () => {
    const { status, output } = await run(['--files', 'schemas/dicts/audit-operation.json', '--url', inject('baseURL'), '--out', out]);
    expect(status, output).toBe(0);

    const index = readFileSync(join(out, 'index.html'), 'utf8');
    const sections = [...index.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1]);
    expect(sections).toEqual(['audit-log-detail', 'audit-log-list']);
    expect(index).toContain('dicts/audit-operation.json</code>: uses dictionary audit-operation');
    expect(index).toContain('/account/audit-log</code> as ');
    expect(index).toContain('(jgadmin)');
    // The detail opened a record of the list (its id in the address), not an empty form.
    expect(index).toMatch(/\/account\/audit-log\/detail\?id=[^<]+<\/code> as /);

    const pictures = readdirSync(out)
      .filter((f) => f.endsWith('.png'))
      .sort();
    expect(pictures).toEqual(['audit-log-detail--jgadmin.png', 'audit-log-list--jgadmin.png']);
    for (const png of pictures) expect(statSync(join(out, png)).size, png).toBeGreaterThan(10_000);
    for (const png of pictures) expect(index).toContain(`<img src="${png}"`);
  });
});
