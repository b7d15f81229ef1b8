/**
 * The validator catalogue bound to Formily. A field's `rules` (and `required`) become Formily
 * validators that run on blur and on submit; while the user types, each check is deferred until
 * 500 ms after the last change (SPEC.md §5). `form.validate()` / `form.submit()` run every
 * validator at once, so a fast submit can never slip past a pending check.
 */
import type { Form, GeneralField, IFieldProps } from '@formily/core';
import { isField, onFieldInputValueChange } from '@formily/core';
import { isEmpty, REQUIRED_MESSAGE, validateAll, VALIDATION_DELAY_MS, type RuleRef, type RuleValue } from '../../../validators';

export { VALIDATION_DELAY_MS };

/** The trigger our validators listen to; deferred input checks fire it too. */
const TRIGGER = 'onBlur' as const;

export interface FieldRuleSpec {
  required?: boolean;
  /** The field's own message for an empty required field (default 此项为必填项). */
  requiredMessage?: string;
  rules?: readonly RuleRef[];
}

type Validator = NonNullable<IFieldProps['validator']>;

/** Formily validator descriptions for one field; empty when the field has no checks. */
export function fieldValidators(spec: FieldRuleSpec): Validator[] {
  const out: Validator[] = [];
  if (spec.required) {
    const message = spec.requiredMessage ?? REQUIRED_MESSAGE;
    out.push({
      triggerType: TRIGGER,
      validator: (value: unknown) => (isEmpty(value) || (Array.isArray(value) && value.length === 0) ? message : undefined),
    } as Validator);
  }
  if (spec.rules?.length) {
    const refs = spec.rules;
    out.push({
      triggerType: TRIGGER,
      validator: (value: unknown) => validateAll(refs, toRuleValue(value)),
    } as Validator);
  }
  return out;
}

function toRuleValue(value: unknown): RuleValue {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'number') return value;
  return String(value);
}

export interface DeferOptions {
  delay?: number;
}

/**
 * Form effects that re-run a field's validators `delay` ms after its last input change. Use in
 * `createForm({ effects: deferredValidation() })`, or attach to an existing form with
 * `attachDeferredValidation(form)`.
 */
export function deferredValidation({ delay = VALIDATION_DELAY_MS }: DeferOptions = {}) {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const effects = () => {
    onFieldInputValueChange('*', (field: GeneralField) => {
      if (!isField(field)) return;
      const key = field.address.toString();
      const pending = timers.get(key);
      if (pending) clearTimeout(pending);
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          if (!field.destroyed) void field.validate(TRIGGER).catch(() => undefined);
        }, delay),
      );
    });
  };
  const cancel = () => {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  };
  return Object.assign(effects, { cancel });
}

let attachSeq = 0;

/** Adds deferred validation to a form; returns a function that removes it and cancels pending checks. */
export function attachDeferredValidation(form: Form, options: DeferOptions = {}): () => void {
  const id = `deferred-validation-${++attachSeq}`;
  const effects = deferredValidation(options);
  form.addEffects(id, effects);
  return () => {
    effects.cancel();
    form.removeEffects(id);
  };
}
