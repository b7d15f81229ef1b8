import type { Form } from '@formily/core';

/**
 * A form's values as a record. Formily types `form.values` as `any`; the engine's forms hold an
 * object (an empty record stands for none). Reading it is a reactive read, as `form.values` is.
 */
export function formValues(form: Form): Record<string, unknown> {
  const values: unknown = form.values;
  return values !== null && typeof values === 'object' ? (values as Record<string, unknown>) : {};
}
