/**
 * The Formily binding of the validator catalogue: the same vectors through a real @formily/core
 * form, the 500 ms deferral while typing, immediate checks on blur and on submit.
 */
import { createForm, type Field } from '@formily/core';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { messages, ruleNames, rules, type RuleName, type RuleRef } from '../../validators';
import { attachDeferredValidation, deferredValidation, fieldValidators, VALIDATION_DELAY_MS } from '../../src/engine/form/rules';
import { VECTORS } from './vectors/rules';

function makeField(spec: { required?: boolean; rules?: RuleRef[]; requiredMessage?: string }) {
  const form = createForm({ effects: deferredValidation() });
  const field = form.createField({ name: 'f', validator: fieldValidators(spec) }) as Field;
  return { form, field };
}

/** Runs the field's validators as a submit does and returns the first error message. */
async function viaFormily(name: RuleName, value: unknown): Promise<string | undefined> {
  const { form, field } = makeField({ rules: [name] });
  form.setValuesIn('f', value);
  await form.validate().catch(() => undefined);
  return field.selfErrors[0];
}

describe.each(ruleNames)('Formily path of %s answers like the direct function', (name) => {
  const cases = [...VECTORS[name].ok, ...VECTORS[name].bad];
  test.each(cases.map((v) => [JSON.stringify(v) ?? 'undefined', v]))('%s', async (_l, value) => {
    expect(await viaFormily(name, value)).toBe(rules[name](value as never));
  });
});

test('random input: Formily and the direct function agree', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ruleNames), fc.oneof(fc.string({ maxLength: 22 }), fc.integer(), fc.double({ noNaN: true })), async (name, value) => {
      expect(await viaFormily(name, value)).toBe(rules[name](value));
    }),
    { numRuns: 300 },
  );
});

describe('timing of the checks', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('while typing, the message appears only 500 ms after the last change', async () => {
    const { field } = makeField({ rules: ['mobile'] });
    await field.onInput('1381');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS - 100);
    await field.onInput('13812');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS - 1);
    expect(field.selfErrors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(field.selfErrors).toEqual([messages.mobile]);
    await field.onInput('13812345678');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS);
    expect(field.selfErrors).toEqual([]);
  });

  test('on blur the check runs at once', async () => {
    const { field } = makeField({ rules: ['postalCode'] });
    await field.onInput('01234');
    expect(field.selfErrors).toEqual([]);
    await field.onBlur();
    expect(field.selfErrors).toEqual([messages.postalCode]);
  });

  test('a fast submit cannot slip past a pending check', async () => {
    const { form, field } = makeField({ rules: ['idCard'] });
    await field.onInput('123');
    await expect(form.submit(() => undefined)).rejects.toBeTruthy();
    expect(field.selfErrors).toEqual([messages.idCard]);
  });

  test('empty values skip the rules; required gives its own message', async () => {
    const { form, field } = makeField({ rules: ['mobile'], required: true });
    await expect(form.validate()).rejects.toBeTruthy();
    expect(field.selfErrors).toEqual(['此项为必填项']);
    const custom = makeField({ required: true, requiredMessage: '请输入当前密码' });
    await expect(custom.form.validate()).rejects.toBeTruthy();
    expect(custom.field.selfErrors).toEqual(['请输入当前密码']);
    const optional = makeField({ rules: ['mobile'] });
    await optional.form.validate();
    expect(optional.field.selfErrors).toEqual([]);
  });

  test('attachDeferredValidation adds the deferral to an existing form and can be removed', async () => {
    const form = createForm();
    const field = form.createField({ name: 'm', validator: fieldValidators({ rules: ['mobile'] }) }) as Field;
    const detach = attachDeferredValidation(form);
    await field.onInput('99');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS);
    expect(field.selfErrors).toEqual([messages.mobile]);
    detach();
    const other = form.createField({ name: 'n', validator: fieldValidators({ rules: ['mobile'] }) }) as Field;
    await other.onInput('98');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS * 2);
    expect(other.selfErrors).toEqual([]);
  });
});
