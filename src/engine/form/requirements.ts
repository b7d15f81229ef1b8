/**
 * A resource field's requirements (src/schema/requirements.ts: `when`, `required`, `requiredWhen`,
 * `requiredOn`, `notBefore`, `notAfter`) as Formily validators, computed by the same functions the
 * server runs, so the form refuses what the server would refuse, with the same message.
 *
 * A requirement limited to some stages (`requiredOn: ["commit"]`) is checked only when the form is
 * submitted for one of them: the form controller sets the stages before it validates (保存 saves a
 * draft: ['save']; 提交 commits: ['save', 'commit']).
 */
import type { Form, GeneralField } from '@formily/core';
import { dateBoundFailure, hasRequirement, isBlank, isRequired, requiredMessage, SAVE_STAGE, stagedRequirement, type Stage } from '../../schema/requirements';
import { actionLabel } from '../../schema/model';
import type { Field, Resource } from '../../schema/types';
import { VALIDATE_TRIGGER, type FieldValidator } from './rules';
import { formValues } from './values';

const formStages = new WeakMap<Form, readonly Stage[]>();

/** The stages the next validation of `form` is for. */
export function setFormStages(form: Form, stages: readonly Stage[]): void {
  formStages.set(form, stages);
}

/** The stages of a save that commits (or not). */
export const stagesOfSave = (commit: boolean): Stage[] => (commit ? [SAVE_STAGE, 'commit'] : [SAVE_STAGE]);

interface ValidatorContext {
  form: Form;
  field: GeneralField;
}

/** The values an expression of the field reads: the form's, or the row's for a sub-table cell. */
function valuesOf({ form, field }: ValidatorContext, inRow: boolean): Record<string, unknown> {
  if (!inRow) return formValues(form);
  const values = (field.parent as { value?: unknown } | undefined)?.value;
  return values && typeof values === 'object' ? (values as Record<string, unknown>) : {};
}

/**
 * The validators of a field's requirements beyond a plain `required` (which the catalogue's
 * required validator covers): conditional and staged requirements, sub-tables without rows, date
 * bounds. `inRow`: the field is a sub-table column (its expressions read its row).
 */
export function requirementValidators(resource: Resource, field: Field, inRow = false): FieldValidator[] {
  const out: FieldValidator[] = [];
  // A plain or toggled requirement of a value is the required rule (compile.ts); staged ones and sub-tables are checked here.
  const conditional = stagedRequirement(field) || (field.type === 'children' && hasRequirement(field));
  if (conditional) {
    out.push({
      triggerType: VALIDATE_TRIGGER,
      validator: (value: unknown, _rule: unknown, ctx: ValidatorContext) => {
        const stages = formStages.get(ctx.form) ?? [SAVE_STAGE];
        return isRequired(field, valuesOf(ctx, inRow), stages) && isBlank(value) ? requiredMessage(field) : null;
      },
    } as FieldValidator);
  }
  if (field.notBefore || field.notAfter) {
    out.push({
      triggerType: VALIDATE_TRIGGER,
      validator: (value: unknown, _rule: unknown, ctx: ValidatorContext) => dateBoundFailure(resource.fields, field, value, valuesOf(ctx, inRow)) ?? null,
    } as FieldValidator);
  }
  return out;
}

/**
 * What the mark of a requirement checked only at some actions says (FormItem.tsx), e.g. 提交时必填;
 * undefined for a requirement of every save (the red asterisk) or none.
 */
export function stagedMark(resource: Resource, field: Field): string | undefined {
  if (!stagedRequirement(field)) return undefined;
  const actions = field.requiredOn!.map((stage) => actionLabel(stage, resource.workflow?.actions[stage]?.label) ?? stage);
  return `${actions.join('、')}时必填`;
}

/**
 * A date field with bounds greys out in its calendar the days they refuse (inputs.tsx DateInput):
 * the validator's own check, asked of each day shown, against the values at that moment (a bound
 * naming another field follows it). The calendar only: a date typed by hand still reaches the
 * validator above, whose message names the bound.
 */
export function refusedDays(resource: Resource, field: Field, inRow = false): ((target: GeneralField) => void) | undefined {
  if (!field.notBefore && !field.notAfter) return undefined;
  return (target) => {
    if (!('setComponentProps' in target)) return;
    target.setComponentProps({
      refusedDay: (day: string) => dateBoundFailure(resource.fields, field, day, valuesOf({ form: target.form, field: target }, inRow)) !== undefined,
    });
  };
}
