/** Expressions embedded in schema files: they parse, and every name they read exists. */
import type { LintContext } from '../context';
import { ExpressionError, collectIdentifiers, parseExpression, type Expr } from '../expr';
import type { JsonPath } from '../json-source';
import type { SchemaFile } from '../types';

/** Checks the expression at `path`; problems point at the exact character inside the string. */
export function checkExpression(ctx: LintContext, file: SchemaFile, path: JsonPath, text: string, names: ReadonlySet<string>, resourceName: string): void {
  let expr: Expr;
  try {
    expr = parseExpression(text);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    ctx.reportAt(file, file.source.offsetInString(path, error.index), 'expression-syntax', `expression: ${error.message}`);
    return;
  }
  for (const { name, index } of collectIdentifiers(expr)) {
    if (!names.has(name))
      ctx.reportAt(
        file,
        file.source.offsetInString(path, index),
        'expression-field',
        `expression names '${name}', which is not a field of resource '${resourceName}'`,
      );
  }
}
