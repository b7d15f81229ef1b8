/**
 * The requirement keywords of resource fields (src/schema/requirements.ts), which both the form
 * and the server evaluate: `when` and `requiredWhen` are expressions over the resource's own
 * fields (no context variables: the server has none); `requiredOn` names workflow actions and
 * replaces `required`; `notBefore` / `notAfter` belong to date fields and name dates or other date
 * fields.
 */
import type { LintContext } from '../context';
import { boundField } from '../requirements';
import { checkExpression } from './expressions';

const DATE_TYPES = ['date', 'datetime'];

export function checkRequirements(ctx: LintContext): void {
  for (const { file, valid } of ctx.resources.values()) {
    if (!valid) continue;
    const resource = file.value;
    const names = new Set([...Object.keys(resource.fields), 'status']);
    const actions = new Set(Object.keys(resource.workflow?.actions ?? {}));
    for (const [name, field] of Object.entries(resource.fields)) {
      if (!field) continue;
      const at = ['fields', name];
      for (const key of ['when', 'requiredWhen', 'compute'] as const) {
        const text = field[key];
        if (text !== undefined) checkExpression(ctx, file, [...at, key], text, names, resource.name);
      }
      const deadline = field.deadline;
      if (typeof deadline === 'object' && deadline.while !== undefined)
        checkExpression(ctx, file, [...at, 'deadline', 'while'], deadline.while, names, resource.name);
      if (field.requiredOn) {
        if (field.required)
          ctx.report(file, [...at, 'required'], 'field-type', `'${name}': requiredOn already makes it required (at those actions); drop required`, 'key');
        field.requiredOn.forEach((action, i) => {
          if (!actions.has(action))
            ctx.report(file, [...at, 'requiredOn', i], 'unknown-action', `resource '${resource.name}' has no workflow action '${action}'`);
        });
      }
      for (const key of ['notBefore', 'notAfter'] as const) {
        const token = field[key];
        if (token === undefined) continue;
        if (!DATE_TYPES.includes(field.type)) {
          ctx.report(file, [...at, key], 'field-type', `'${key}' applies to date and datetime fields only ('${name}' is ${field.type})`, 'key');
          continue;
        }
        const other = boundField(token);
        if (other === undefined) continue;
        const target = resource.fields[other];
        if (!target) ctx.report(file, [...at, key], 'unknown-field', `'${other}' is not a field of resource '${resource.name}' (nor today±N or a date)`);
        else if (!DATE_TYPES.includes(target.type))
          ctx.report(file, [...at, key], 'field-type', `'${key}' compares with '${other}', which is not a date (type ${target.type})`);
      }
    }
  }
}
