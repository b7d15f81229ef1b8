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
import { formatDiagnostic } from '../src/schema/diagnostics';
import { lintSchemas } from '../src/schema/node';
import { HOOK_NAMES } from './hook-names';
import { RULE_NAMES } from './rule-names';

const dir = resolve(process.argv[2] ?? 'schemas');
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
