/**
 * The Formily binding of the validator catalogue, with @formily/core only (no DOM): the shared
 * vectors through a real form, the 500 ms deferral while typing, immediate checks on blur and on
 * submit, required messages, and the password strength levels.
 */
import { createForm, type Field, type Form } from '@formily/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { messages, POSTAL_CODE_LONG_MESSAGE, ruleNames, type RuleName } from '../../validators';
import {
  attachDeferredValidation,
  deferredValidation,
  fieldValidators,
  VALIDATION_DELAY_MS,
  type DeferOptions,
  type FieldRuleSpec,
} from '../../src/engine/form/rules';
import { describeStrength, strengthLabel } from '../../src/engine/form/strength';
import { viaFormily } from './vectors/paths';
import { EMPTY_VALUES, label, labelledCases, VECTORS_TODAY } from './vectors/rules';
import { middayInChina, pinClock } from '../support/clock';

describe.each(ruleNames)('Formily path of %s', (name: RuleName) => {
  // The date-relative vectors (born today / tomorrow) hold for the day they were made.
  beforeAll(() => pinClock(middayInChina(VECTORS_TODAY)));
  afterAll(() => {
    vi.useRealTimers();
  });
  test.each(labelledCases(name))('%s', async (_l, { value, valid }) => {
    expect(await viaFormily([name], value)).toBe(valid ? undefined : messages[name]);
  });
  test('passes empty values', async () => {
    for (const value of EMPTY_VALUES) expect(await viaFormily([name], value), label(value)).toBeUndefined();
  });
});

test('a field may override a rule message', async () => {
  expect(await viaFormily([{ rule: 'postalCode', message: POSTAL_CODE_LONG_MESSAGE }], '01234')).toBe('请输入有效的邮政编码');
});

test('an unknown rule fails when the field is compiled, not when the user types', () => {
  expect(() => fieldValidators({ rules: ['nope' as RuleName] })).toThrow(/unknown validation rule/);
});

function makeField(spec: FieldRuleSpec, options?: DeferOptions): { form: Form; field: Field } {
  const form = createForm({ effects: deferredValidation(options) });
  const field = form.createField({ name: 'f', validator: fieldValidators(spec) });
  return { form, field };
}

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
  });

  test('a corrected value clears the message after the deferral', async () => {
    const { field } = makeField({ rules: ['mobile'] });
    await field.onInput('99');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS);
    expect(field.selfErrors).toEqual([messages.mobile]);
    await field.onInput('13812345678');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS);
    expect(field.selfErrors).toEqual([]);
  });

  test('fields are debounced independently', async () => {
    const form = createForm({ effects: deferredValidation() });
    const a = form.createField({ name: 'a', validator: fieldValidators({ rules: ['mobile'] }) });
    const b = form.createField({ name: 'b', validator: fieldValidators({ rules: ['postalCode'] }) });
    await a.onInput('1');
    await vi.advanceTimersByTimeAsync(300);
    await b.onInput('0');
    await vi.advanceTimersByTimeAsync(200);
    expect(a.selfErrors).toEqual([messages.mobile]);
    expect(b.selfErrors).toEqual([]);
    await vi.advanceTimersByTimeAsync(300);
    expect(b.selfErrors).toEqual([messages.postalCode]);
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
    const onSubmit = vi.fn();
    await field.onInput('123');
    await expect(form.submit(onSubmit)).rejects.toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(field.selfErrors).toEqual([messages.idCard]);
  });

  test('a submit with valid values goes through', async () => {
    const { form, field } = makeField({ required: true, rules: ['idCard'] });
    await field.onInput('11010519491231002x');
    await expect(form.submit((values: Record<string, unknown>) => Promise.resolve(values))).resolves.toEqual({ f: '11010519491231002x' });
  });

  test('empty values skip the rules; required has its own, overridable message', async () => {
    const required = makeField({ rules: ['mobile'], required: true });
    await expect(required.form.validate()).rejects.toBeTruthy();
    expect(required.field.selfErrors).toEqual(['此项为必填项']);
    await required.field.onInput('   ');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS);
    expect(required.field.selfErrors).toEqual(['此项为必填项']);

    const own = makeField({ required: true, requiredMessage: '请输入当前密码' });
    await expect(own.form.validate()).rejects.toBeTruthy();
    expect(own.field.selfErrors).toEqual(['请输入当前密码']);

    const selection = makeField({ required: true });
    selection.form.setValuesIn('f', []);
    await expect(selection.form.validate()).rejects.toBeTruthy();

    const optional = makeField({ rules: ['mobile'] });
    await optional.field.onInput('');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS);
    await optional.form.validate();
    expect(optional.field.selfErrors).toEqual([]);
  });

  test('the delay is configurable and fields outside the pattern wait for blur', async () => {
    const form = createForm({ effects: deferredValidation({ delay: 200, pattern: '*(!quiet)' }) });
    const loud = form.createField({ name: 'loud', validator: fieldValidators({ rules: ['mobile'] }) });
    const quiet = form.createField({ name: 'quiet', validator: fieldValidators({ rules: ['mobile'] }) });
    await loud.onInput('1');
    await quiet.onInput('1');
    await vi.advanceTimersByTimeAsync(200);
    expect(loud.selfErrors).toEqual([messages.mobile]);
    expect(quiet.selfErrors).toEqual([]);
    await quiet.onBlur();
    expect(quiet.selfErrors).toEqual([messages.mobile]);
  });

  test('a reset drops the pending check', async () => {
    const form = createForm({ effects: deferredValidation() });
    const field = form.createField({ name: 'f', initialValue: '1', validator: fieldValidators({ rules: ['mobile'] }) });
    await field.onInput('13');
    await form.reset();
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS * 2);
    expect(field.value).toBe('1');
    expect(field.selfErrors).toEqual([]);
  });

  test('attachDeferredValidation adds the deferral to an existing form and can be removed', async () => {
    const form = createForm();
    const field = form.createField({ name: 'm', validator: fieldValidators({ rules: ['mobile'] }) });
    const detach = attachDeferredValidation(form);
    await field.onInput('99');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS);
    expect(field.selfErrors).toEqual([messages.mobile]);
    await field.onInput('13812345678');
    detach(); // cancels the pending check: the old message stays until blur or submit
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS * 2);
    expect(field.selfErrors).toEqual([messages.mobile]);
    await field.onInput('98');
    await vi.advanceTimersByTimeAsync(VALIDATION_DELAY_MS * 2);
    await field.onBlur();
    expect(field.selfErrors).toEqual([messages.mobile]);
  });
});

describe('the strength meter levels', () => {
  test.each([
    [0, '弱'],
    [1, '弱'],
    [2, '弱'],
    [3, '中'],
    [4, '强'],
  ])('score %i reads %s', (score, text) => expect(strengthLabel(score)).toBe(text));
  test('what the meter shows for a value', () => {
    expect(describeStrength('')).toMatchObject({ score: 0, percent: 0, label: undefined });
    expect(describeStrength('abcdefgh')).toMatchObject({ score: 1, percent: 25, label: '弱' });
    expect(describeStrength('Abcd1234')).toMatchObject({ score: 3, percent: 75, label: '中' });
    expect(describeStrength('Admin@2026')).toMatchObject({ score: 4, percent: 100, label: '强' });
  });
});
