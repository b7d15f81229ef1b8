/**
 * npm run lint:schemas [-- dir]   (default: schemas/)
 *
 * Prints `path:line:col: message [code]` for every problem of the schema files, a summary line,
 * and exits non-zero when there is any problem. A directory without its own meta/ (a test
 * corpus) is checked against the project's meta-schemas.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../src/server/command-line.mjs';

const { positionals } = parseCommandLine({
  name: 'npm run lint:schemas',
  summary: [
    'Checks the schema files (screens, resources, dictionaries, menu) against the meta-schemas, the validation rules and the hooks: prints `path:line:col: message [code]` for every problem and a summary line; exits 1 when there is any problem.',
    "A directory without its own meta/ (a test corpus) is checked against the project's meta-schemas.",
  ],
  positionals: [{ name: 'dir', description: 'the schema directory (default: schemas/)', path: 'dir' }],
  examples: ['npm run lint:schemas', 'npm run lint:schemas -- tests/fixtures/schemas'],
});
const dir = resolve(positionals[0] ?? 'schemas');
// The linter, the rules and the hooks load once the command line is understood.
const [{ formatDiagnostic }, { lintSchemas }, { HOOK_NAMES }, { RULE_NAMES }] = await Promise.all([
  import('../src/schema/diagnostics'),
  import('../src/schema/node'),
  import('./hook-names'),
  import('./rule-names'),
]);
const prefix = `${relative(process.cwd(), dir) || '.'}/`;
const started = performance.now();
const projectMeta = fileURLToPath(new URL('../schemas/meta', import.meta.url));
const metaDir = existsSync(join(dir, 'meta')) ? undefined : projectMeta;
const result = lintSchemas(dir, { ruleNames: RULE_NAMES, hookNames: HOOK_NAMES, metaDir });
const elapsed = Math.round(performance.now() - started);

for (const error of result.errors) console.log(formatDiagnostic(error, prefix));
const hatches = result.escapeHatches.length > 0 ? `, ${result.escapeHatches.length} screens use escape hatches (${result.escapeHatches.join(', ')})` : '';
console.log(`${result.files} files, ${result.errors.length} errors${hatches} (${elapsed} ms)`);
process.exit(result.errors.length > 0 ? 1 : 0);
