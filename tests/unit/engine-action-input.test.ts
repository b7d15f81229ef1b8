/**
 * Workflow actions that ask for fields (`input`): the action resolves without a confirmation, and
 * the dialog's form renders exactly those fields, editable although the resource marks them
 * readonly, each required, with the opinion when the action takes one.
 */
import { createForm } from '@formily/core';
import type { ISchema } from '@formily/react';
import { describe, expect, it } from 'vitest';
import { actionInputForm } from '../../src/engine/actions/ActionInputDialog';
import { resolveActions } from '../../src/engine/actions/actions';
import type { Dict, Resource } from '../../src/schema/types';

const verdicts: Dict = {
  name: 'verdicts',
  title: '结论',
  items: [
    { value: 'ok', label: '通过' },
    { value: 'no', label: '不通过' },
  ],
};
const ticket: Resource = {
  name: 'ticket',
  table: 'ticket',
  title: '工单',
  fields: {
    title: { type: 'string', label: '标题', required: true },
    verdict: { type: 'dict', label: '结论', dict: 'verdicts', readonly: true },
    doneOn: { type: 'date', label: '完成日期', readonly: true },
    contact: { type: 'string', label: '联系电话', readonly: true, rules: ['mobile'] },
  },
  workflow: {
    states: [
      { code: 'open', label: '处理中' },
      { code: 'done', label: '已完成' },
    ],
    initial: 'open',
    finals: ['done'],
    actions: {
      finish: { from: ['open'], to: 'done', label: '办结', opinion: 'optional', input: ['verdict', 'doneOn', 'contact'] },
      close: { from: ['open'], to: 'done', label: '关闭' },
    },
  },
};
const sources = { resource: ticket, resources: new Map<string, Resource>(), dicts: new Map([['verdicts', verdicts]]) };

const fieldsOf = (schema: ISchema, out: Record<string, ISchema> = {}): Record<string, ISchema> => {
  for (const [key, node] of Object.entries((schema.properties ?? {}) as Record<string, ISchema>)) {
    if (node.type === 'void') fieldsOf(node, out);
    else out[key] = node;
  }
  return out;
};

describe('actions with input fields', () => {
  it('resolve with their input and without a confirmation question', () => {
    const [finish, close] = resolveActions(ticket, ['finish', 'close']);
    expect(finish.input).toEqual(['verdict', 'doneOn', 'contact']);
    expect(finish.confirm).toBeUndefined();
    expect(close.input).toBeUndefined();
    expect(close.confirm).toBe('确定要关闭该记录吗？');
  });

  it('render the asked fields editable and required, plus the opinion', () => {
    const [finish] = resolveActions(ticket, ['finish']);
    const fields = fieldsOf(actionInputForm(finish, sources));
    expect(Object.keys(fields)).toEqual(['verdict', 'doneOn', 'contact', '__opinion']);
    for (const name of ['verdict', 'doneOn', 'contact']) {
      expect(fields[name]['x-pattern'], name).toBeUndefined();
      expect(fields[name]['x-validator'], name).toEqual(expect.arrayContaining([expect.objectContaining({ required: true })]));
    }
    expect(fields.verdict['x-component']).toBe('Select');
    expect(fields.verdict.enum).toEqual([
      { value: 'ok', label: '通过', disabled: undefined },
      { value: 'no', label: '不通过', disabled: undefined },
    ]);
    expect(fields.doneOn['x-component']).toBe('DatePicker');
    expect(fields.__opinion['x-validator']).toBeUndefined();
    // The resource itself is untouched: its fields stay readonly elsewhere.
    expect(ticket.fields.verdict?.readonly).toBe(true);
  });

  it('check the fields with their catalogue rules', async () => {
    const [finish] = resolveActions(ticket, ['finish']);
    const form = createForm();
    const contact = fieldsOf(actionInputForm(finish, sources)).contact;
    const field = form.createField({ name: 'contact', validator: contact['x-validator'] as never });
    await field.onInput('123');
    await Promise.resolve(field.validate()).catch(() => undefined);
    expect(field.selfErrors).toEqual(['请输入有效的手机号码']);
  });
});
