/**
 * npm run lint:schemas [-- [--base <ref>] dir]   (default: schemas/)
 *
 * Prints `path:line:col: message [code]` for every problem of the schema files, a summary line,
 * and exits non-zero when there is any problem. A directory without its own meta/ (a test
 * corpus) is checked against the project's meta-schemas. With `--base <ref>` it also compares the
 * resources at that git ref with the working tree (lint-schemas-base.ts) and prints one line per
 * change; an undeclared destructive change exits 1 too.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../src/server/command-line.mjs';
import { BadRefError, resolveBase, resourcesAt, resourcesIn, type BaseRef } from './lint-schemas-base';

const { positionals, values } = parseCommandLine({
  name: 'npm run lint:schemas',
  summary: [
    'Checks the schema files (screens, resources, dictionaries, menu) against the meta-schemas, the validation rules and the hooks: prints `path:line:col: message [code]` for every problem and a summary line; exits 1 when there is any problem.',
    "A directory without its own meta/ (a test corpus) is checked against the project's meta-schemas.",
  ],
  options: {
    base: {
      type: 'string',
      value: 'ref',
      description:
        'also compare every resource at this git ref with the working tree: one line per change (resource, field, additive | needs-data-step | destructive, what); exit 1 on a destructive change the resource does not declare (evolution.drop). `auto`: the merge-base with origin/main, else HEAD~1, else skipped (no git, a shallow clone, a single commit)',
    },
  },
  positionals: [{ name: 'dir', description: 'the schema directory (default: schemas/)', path: 'dir' }],
  examples: [
    'npm run lint:schemas',
    'npm run lint:schemas -- tests/fixtures/schemas',
    'npm run lint:schemas -- --base auto',
    'npm run lint:schemas -- --base main~3',
  ],
});
const dir = resolve(positionals[0] ?? 'schemas');
const baseOption = typeof values.base === 'string' ? values.base : undefined;
// A wrong ref is a wrong command line: one line, exit 2, before any linting.
let base: BaseRef | undefined;
try {
  base = baseOption === undefined ? undefined : resolveBase(dir, baseOption);
} catch (err) {
  if (!(err instanceof BadRefError)) throw err;
  process.stderr.write(`npm run lint:schemas: ${err.message} (see npm run lint:schemas -- --help)\n`);
  process.exit(2);
}
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

let refused = 0;
if (base && 'skip' in base) console.log(`--base ${baseOption}: comparison skipped: ${base.skip}`);
else if (base) {
  const { classifyChanges, formatChange } = await import('../src/schema/evolution');
  const changes = classifyChanges(resourcesAt(dir, base.ref), resourcesIn(dir));
  for (const change of changes) console.log(formatChange(change));
  refused = changes.filter((c) => c.class === 'destructive' && !c.declared).length;
  const count = (cls: string) => changes.filter((c) => c.class === cls).length;
  console.log(
    `--base ${baseOption} (${base.ref.slice(0, 12)}): ${changes.length} changes, ${count('additive')} additive, ${count('needs-data-step')} need a data step, ${count('destructive')} destructive (${refused} not declared)`,
  );
}
process.exit(result.errors.length > 0 || refused > 0 ? 1 : 0);
