/** Lint findings: a stable code per check, a message for analysts, and the real source location. */

/** One code per check; each has a broken-file example in tests/fixtures/lint/<code>/. */
export const LINT_CODES = [
  'json-syntax',
  'duplicate-key',
  'schema-ref',
  'meta-schema',
  'file-location',
  'file-name',
  'duplicate-name',
  'duplicate-table',
  'duplicate-api',
  'duplicate-route',
  'duplicate-field',
  'unknown-resource',
  'unknown-dict',
  'filtered-dict',
  'unknown-rule',
  'unknown-hook',
  'unknown-field',
  'unknown-screen',
  'unrouted-screen',
  'unknown-route',
  'unknown-action',
  'unknown-access',
  'unknown-filter',
  'field-type',
  'personal-data',
  'reserved-field',
  'screen-link',
  'dict-value',
  'label',
  'expression-syntax',
  'expression-field',
  'workflow-state',
  'workflow-unreachable',
  'workflow-dead-end',
  'workflow-final',
  'system-table',
  'party',
  'evolution',
] as const;

export type LintCode = (typeof LINT_CODES)[number];

export interface Diagnostic {
  /** Path of the file relative to the linted directory, with forward slashes. */
  file: string;
  line: number;
  column: number;
  code: LintCode;
  message: string;
}

/** `file:line:col: message [code]`, the format editors and CI annotators understand. */
export function formatDiagnostic(d: Diagnostic, prefix = ''): string {
  return `${prefix}${d.file}:${d.line}:${d.column}: ${d.message} [${d.code}]`;
}

/** Diagnostics in file, line, column order. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || a.message.localeCompare(b.message)));
}
