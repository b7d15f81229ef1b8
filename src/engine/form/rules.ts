/**
 * The validator catalogue (validators/) bound to Formily.
 *
 * A field's `rules` and `required` become Formily validators with trigger `onBlur`, so Formily runs
 * them on blur, and `form.validate()` / `form.submit()` run them at once: a fast submit can never
 * slip past a pending check. While the user types, `deferredValidation` re-runs the same
 * validators `delay` ms (500) after the field's last change — a per-field debounce. Rules skip
 * empty values (validators/values.ts); `required` is its own validator.
 *
 *   const form = createForm({ effects: deferredValidation() });
 *   form.createField({ name: 'mobile', validator: fieldValidators({ required: true, rules: ['mobile'] }) });
 */
import {
  isField,
  onFieldInputValueChange,
  onFieldReset,
  onFieldUnmount,
  onFormUnmount,
  type Form,
  type FormPathPattern,
  type GeneralField,
  type IFieldProps,
} from '@formily/core';
import { assertRuleRef, isEmpty, REQUIRED_MESSAGE, toRuleValue, validateAll, VALIDATION_DELAY_MS, type RuleRef } from '../../../validators';

export { VALIDATION_DELAY_MS };

/** One Formily validator description, as `createField({ validator })` takes it. */
export type FieldValidator = NonNullable<IFieldProps['validator']>;

/** The trigger of every catalogue validator; the deferral fires the same trigger. */
export const VALIDATE_TRIGGER = 'onBlur' as const;

export interface FieldRuleSpec {
  required?: boolean;
  /** The field's own message for an empty required field (default 此项为必填项). */
  requiredMessage?: string;
  rules?: readonly RuleRef[];
}

/** True for the values a required field must not have: empty text and empty selections. */
export function isBlank(value: unknown): boolean {
  return isEmpty(value) || (Array.isArray(value) && value.length === 0);
}

/** The required check: `message` (default 此项为必填项) for a blank value. */
export function requiredValidator(message: string = REQUIRED_MESSAGE): FieldValidator {
  return { triggerType: VALIDATE_TRIGGER, validator: (value: unknown) => (isBlank(value) ? message : null) };
}

/**
 * The catalogue rules of a field, first failure wins. Unknown rule names throw here, when the
 * schema is compiled, rather than on the user's first keystroke.
 */
export function rulesValidator(refs: readonly RuleRef[]): FieldValidator {
  refs.forEach(assertRuleRef);
  return { triggerType: VALIDATE_TRIGGER, validator: (value: unknown) => validateAll(refs, toRuleValue(value)) ?? null };
}

/** Formily validators for one field; empty when the field has no checks. */
export function fieldValidators(spec: FieldRuleSpec): FieldValidator[] {
  const out: FieldValidator[] = [];
  if (spec.required) out.push(requiredValidator(spec.requiredMessage));
  if (spec.rules?.length) out.push(rulesValidator(spec.rules));
  return out;
}

export interface DeferOptions {
  /** Milliseconds after the last change (default 500, as the original). */
  delay?: number;
  /** Which fields are deferred (a Formily path pattern, default all). Others validate on blur and submit only. */
  pattern?: FormPathPattern;
}

export type DeferredValidationEffects = (() => void) & {
  /** Cancels every pending check (e.g. when the form goes away). */
  cancel: () => void;
};

/**
 * Form effects that re-run a field's validators `delay` ms after its last input change. One
 * instance per form: `createForm({ effects: deferredValidation() })`, or attach to an existing
 * form with `attachDeferredValidation(form)`. Pending checks are dropped when their field is
 * reset or unmounted, and all of them when the form unmounts.
 */
export function deferredValidation({ delay = VALIDATION_DELAY_MS, pattern = '*' }: DeferOptions = {}): DeferredValidationEffects {
  const timers = new Map<GeneralField, ReturnType<typeof setTimeout>>();
  const clear = (field: GeneralField) => {
    clearTimeout(timers.get(field));
    timers.delete(field);
  };
  const cancel = () => {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  };
  const effects = () => {
    onFieldInputValueChange(pattern, (field) => {
      if (!isField(field)) return;
      clear(field);
      timers.set(
        field,
        setTimeout(() => {
          timers.delete(field);
          // A failed validation rejects; its messages are already on the field.
          if (!field.destroyed) Promise.resolve(field.validate(VALIDATE_TRIGGER)).catch(() => undefined);
        }, delay),
      );
    });
    onFieldReset(pattern, clear);
    onFieldUnmount(pattern, clear);
    onFormUnmount(cancel);
  };
  return Object.assign(effects, { cancel });
}

let attachSeq = 0;

/** Adds deferred validation to an existing form; returns a function that removes it and cancels pending checks. */
export function attachDeferredValidation(form: Form, options: DeferOptions = {}): () => void {
  const id = `deferred-validation-${++attachSeq}`;
  const effects = deferredValidation(options);
  form.addEffects(id, effects);
  return () => {
    effects.cancel();
    form.removeEffects(id);
  };
}
