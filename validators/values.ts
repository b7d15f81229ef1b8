/**
 * How the catalogue reads a field value. Every consumer (direct call, Formily binding, ajv keyword)
 * goes through these two functions, so all of them see the same text for the same input.
 *
 * - Empty values — undefined, null, '' and whitespace-only strings — are valid for every rule:
 *   "required" is a separate concern.
 * - Strings are checked without their surrounding whitespace (`String.prototype.trim`, which also
 *   removes the ideographic space U+3000 and no-break spaces). Inner whitespace is kept and counts
 *   against every rule that does not allow it.
 * - A number is checked as its JavaScript string form: `12` behaves exactly like `'12'`. Numbers
 *   whose string form uses an exponent (|n| ≥ 1e21 or < 1e-6, e.g. `1e+21`) therefore fail the
 *   numeric rules: such values are beyond what a form field carries exactly. NaN and ±Infinity
 *   fail every rule.
 * - Only ASCII characters count as digits and letters: full-width digits (０-９) and letters (Ａ-ｚ)
 *   are rejected, never silently converted, because codes are stored and exchanged in ASCII.
 */

/** A field value as the rules take it. */
export type RuleValue = string | number | null | undefined;

/** True for undefined, null, '' and whitespace-only strings. */
export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Narrows any runtime value (a Formily field value, a JSON body member) to a rule value:
 * strings, numbers, null and undefined pass through; anything else (booleans, bigints, objects)
 * is checked as its `String()` form.
 */
export function toRuleValue(value: unknown): RuleValue {
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number') return value;
  return String(value);
}

/**
 * The text a rule checks for a non-empty value, or undefined when the value can never be valid
 * (a non-finite number). `trim` is false only for passwords, where every character counts.
 */
export function ruleText(value: string | number, trim = true): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  return trim ? value.trim() : value;
}
