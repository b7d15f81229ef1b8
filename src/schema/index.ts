/**
 * The schema model: types of the schema files, their meaning (system fields, standard actions),
 * the expression language and the lint. Browser-safe; `./node` adds reading a directory.
 */
export * from './types';
export { parseExpression, evaluate, holds, collectIdentifiers, ExpressionError, type Expr, type Scope } from './expr';
export {
  systemFields,
  resourceFields,
  recordActions,
  actionLabel,
  isCoded,
  isDictType,
  isListable,
  STANDARD_ACTIONS,
  SCREEN_ACTIONS,
  READ_ACTIONS,
  CONTEXT_VARIABLES,
  RESERVED_FIELD_NAMES,
} from './model';
export { FIELD_KINDS, FIELD_TYPES, TYPE_SPECIFIC_PROPERTIES, fieldKind, type FieldKind, type ValueKind, type FilterKind, type TypeKeyword } from './kinds';
export { analyzeWorkflow, type WorkflowIssue } from './workflow';
export { lintFiles, kindOf, expectedSchemaRef, type LintOptions, type LintResult } from './lint';
export { formatDiagnostic, LINT_CODES, type Diagnostic, type LintCode } from './diagnostics';
export { JsonSource, type JsonPath, type Position } from './json-source';
