/**
 * Path and route templates of open forms: `{field}` placeholders filled from values (the form's,
 * or a reply's), each URL-encoded. Pure, so the compile and the tests need no React.
 */

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The names a template's placeholders use, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** `template` with every {name} replaced by the URL-encoded value of `values[name]` (empty when absent). */
export function fillTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(text(values[name]).trim()));
}

/**
 * A send call of the named fields: the path with their values in its placeholders, the body with
 * the values of those the path does not name.
 */
export function callOf(
  template: string,
  fields: readonly string[],
  values: Readonly<Record<string, unknown>>,
): { path: string; body: Record<string, unknown> } {
  const named = new Set(placeholdersOf(template));
  const body = Object.fromEntries(fields.filter((f) => !named.has(f)).map((f) => [f, typeof values[f] === 'string' ? values[f].trim() : values[f]]));
  return { path: fillTemplate(template, values), body };
}

/** The message a reply carries ({ message }), if any. */
export function replyMessage(reply: unknown): string | undefined {
  const message = (reply as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message ? message : undefined;
}
