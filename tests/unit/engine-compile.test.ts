import { createForm, type Field, type FieldValidator } from '@formily/core';
import type { ISchema } from '@formily/react';
import { createElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import demoDict from '../../schemas/dicts/demo-notice-category.json';
import demoResource from '../../schemas/resources/demo-notice.json';
import demoForm from '../../schemas/screens/demo-notice-form.json';
import { compileForm, compileFormUncached, defaultValues, stepKey } from '../../src/engine/form/compile';
import { DEFAULT_UPLOAD_MAX_MB, uploadHint } from '../../src/engine/form/AttachmentUpload';
import { refusedDayCell } from '../../src/engine/form/inputs';
import { ARRAY_TABLE_INDEX_KEY, toRecord } from '../../src/engine/form/payload';
import { setFormStages, stagedMark, stagesOfSave } from '../../src/engine/form/requirements';
import type { Dict, Field as ResourceField, FormScreen, Resource, WizardScreen } from '../../src/schema/types';

const resource = demoResource as unknown as Resource;
const screen = demoForm as unknown as FormScreen;
const bundle = { resource, resources: new Map<string, Resource>(), dicts: new Map([['demo-notice-category', demoDict as unknown as Dict]]) };

const props = (node: ISchema) => node.properties as Record<string, ISchema>;
/** A node's `x-component-props` (Formily types them `any`; the compiler writes an object). */
const componentProps = (node: ISchema) => (node['x-component-props'] ?? {}) as Record<string, unknown>;

/** Field nodes of a compiled schema by name (through sections, grids and steps). */
function fieldsOf(schema: ISchema, out: Record<string, ISchema> = {}): Record<string, ISchema> {
  for (const [key, node] of Object.entries(props(schema) ?? {})) {
    if (node.type === 'void') fieldsOf(node, out);
    else out[key] = node;
  }
  return out;
}

// A region tree and a resource using every field type, for the cases the demo does not cover.
const regions: Dict = {
  name: 'regions',
  title: '区域',
  items: [
    {
      value: '53',
      label: '甲省',
      children: [
        { value: '5301', label: '甲市', children: [{ value: '530102', label: '甲区' }] },
        { value: '5302', label: '乙市' },
      ],
    },
    { value: '52', label: '乙省', children: [{ value: '5201', label: '丙市' }] },
  ],
};
const line: Resource = {
  name: 'line',
  table: 'line',
  title: '明细',
  fields: { item: { type: 'string', label: '项目', required: true }, qty: { type: 'int', label: '数量' } },
};
const order: Resource = {
  name: 'order',
  table: 'ord',
  title: '单据',
  fields: {
    province: { type: 'dict', label: '省', dict: 'regions' },
    city: { type: 'dict', label: '市', dict: 'regions' },
    area: { type: 'area', label: '区域', dict: 'regions' },
    amount: { type: 'money', label: '金额', min: 0 },
    tags: { type: 'multiDict', label: '标签', dict: 'regions', default: ['53'] },
    mobile: { type: 'string', label: '手机', rules: ['mobile'] },
    locked: { type: 'bool', label: '锁定' },
    note: { type: 'text', label: '备注', maxLength: 20 },
    lines: { type: 'children', label: '明细', resource: 'line' },
  },
};
const orderScreen: FormScreen = {
  id: 'order-form',
  kind: 'form',
  resource: 'order',
  title: '单据',
  sections: [
    {
      columns: 3,
      fields: [
        'province',
        { field: 'city', optionsFrom: 'province' },
        'area',
        'amount',
        'tags',
        'mobile',
        'locked',
        { field: 'note', disabledWhen: 'locked === true', 'x-formily': { 'x-component-props': { rows: 2 } } },
      ],
    },
    { title: '明细', when: "$mode !== 'add'", fields: [{ field: 'lines', span: 3 }] },
  ],
};
const orderBundle = { resource: order, resources: new Map([['line', line]]), dicts: new Map([['regions', regions]]) };

describe('form compiler: structure', () => {
  const schema = compileFormUncached(screen, bundle);

  it('turns sections into titled FormSection > FormGrid nodes with their columns', () => {
    const sections = Object.values(props(schema));
    expect(sections.map((s): unknown[] => [s['x-component'], s['x-component-props']])).toEqual([
      ['FormSection', { title: '基本信息' }],
      ['FormSection', { title: '正文' }],
    ]);
    expect(sections.map((s) => componentProps(props(s).grid).maxColumns)).toEqual([2, 1]);
  });

  it('takes label, component and props from the resource field, span from the screen', () => {
    const f = fieldsOf(schema);
    expect(Object.keys(f)).toEqual([
      'title',
      'unitName',
      'category',
      'publishDate',
      'expireDate',
      'urgent',
      'urgentReason',
      'contactEmail',
      'content',
      'attachments',
    ]);
    expect(f.title).toMatchObject({ title: '标题', 'x-component': 'Input', 'x-decorator': 'FormItem', 'x-decorator-props': { gridSpan: 2 } });
    expect(f.title['x-component-props']).toMatchObject({ maxLength: 100 });
    expect(f.content['x-component']).toBe('Input.TextArea');
    expect(f.publishDate['x-component']).toBe('DatePicker');
    expect(f.urgent['x-component']).toBe('BoolSwitch');
    expect(f.unitName['x-pattern']).toBe('readPretty');
    expect(f.attachments).toMatchObject({ type: 'array', 'x-component': 'AttachmentUpload', 'x-component-props': { maxCount: 5 } });
  });

  it('offers a dictionary as Select options, disabled items kept for old rows', () => {
    const f = fieldsOf(schema);
    expect(f.category['x-component']).toBe('Select');
    expect(f.category.enum).toEqual([
      { value: '1', label: '通知', disabled: undefined },
      { value: '2', label: '公告', disabled: undefined },
      { value: '3', label: '政策法规', disabled: undefined },
      { value: '9', label: '其他', disabled: true },
    ]);
  });

  it('binds required with the field’s own message (请填写标题) and rules through the shared validators', () => {
    const f = fieldsOf(schema);
    expect(f.title['x-validator']).toEqual([{ required: true, message: '请填写标题', triggerType: 'onBlur' }]);
    expect(f.urgentReason['x-validator']).toEqual([{ required: false, message: '请填写紧急原因', triggerType: 'onBlur' }]);
    expect(f.contactEmail['x-validator']).toHaveLength(1);
    expect(f.publishDate['x-validator']).toBeUndefined();
  });

  it('maps every field type to its registered component', () => {
    const f = fieldsOf(compileFormUncached(orderScreen, orderBundle));
    expect(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v['x-component']]))).toEqual({
      province: 'Select',
      city: 'Select',
      area: 'AreaCascader',
      amount: 'NumberPicker',
      tags: 'Select',
      mobile: 'Input',
      locked: 'BoolSwitch',
      note: 'Input.TextArea',
      lines: 'ArrayTable',
    });
    expect(f.amount['x-component-props']).toMatchObject({ precision: 2, min: 0 });
    expect(f.tags['x-component-props']).toMatchObject({ mode: 'multiple' });
    expect((componentProps(f.area).dataSource as { children: { label: string }[] }[])[0].children[0].label).toBe('甲市');
    expect(f.note['x-component-props']).toMatchObject({ rows: 2, maxLength: 20 });
  });

  it('compiles a sub-table to ArrayTable columns of the child resource', () => {
    const lines = fieldsOf(compileFormUncached(orderScreen, orderBundle)).lines;
    const columns = lines.items as ISchema;
    expect(Object.values(props(columns)).map((c) => componentProps(c).title)).toEqual(['序号', '项目', '数量', '操作']);
    expect(props(props(columns).column_item).item).toMatchObject({ 'x-component': 'Input', 'x-validator': [{ required: true }] });
    expect(props(lines).add['x-component']).toBe('ArrayTable.Addition');
  });

  it('compiles wizard steps around their sections', () => {
    const wizard: WizardScreen = {
      id: 'w',
      kind: 'wizard',
      resource: 'order',
      title: '向导',
      steps: [
        { title: '一', sections: [{ fields: ['province'] }] },
        { title: '二', sections: [{ fields: ['amount'] }] },
      ],
    };
    const schema = compileFormUncached(wizard, orderBundle);
    expect(Object.keys(props(schema))).toEqual([stepKey(0), stepKey(1)]);
    expect(props(schema)[stepKey(1)]).toMatchObject({ 'x-component': 'WizardStep', 'x-component-props': { title: '二', index: 1 } });
  });

  it('memoises per screen id and recompiles a changed screen', () => {
    const first = compileForm(screen, bundle);
    expect(compileForm(screen, bundle)).toBe(first);
    expect(compileForm({ ...screen }, bundle)).not.toBe(first);
  });

  it('starts a new record from the declared defaults', () => {
    expect(defaultValues(resource)).toEqual({ category: '1', urgent: false });
    expect(defaultValues(order)).toEqual({ tags: ['53'] });
  });
});

/** Creates the fields of a compiled schema on a bare form (no React), with their reactions. */
function formOf(schema: ISchema, values: Record<string, unknown>, scope: Record<string, unknown> = {}) {
  const form = createForm({ initialValues: values });
  const f = fieldsOf(schema);
  const fields: Record<string, Field> = {};
  for (const [name, node] of Object.entries(f)) {
    const reactions = ((node['x-reactions'] ?? []) as ((field: Field, scope: unknown) => void)[]).map((r) => (field: Field) => r(field, scope));
    fields[name] = form.createField({ name, validator: node['x-validator'] as FieldValidator, dataSource: node.enum as never, reactions });
  }
  return { form, fields };
}

describe('form compiler: reactions', () => {
  it('shows and requires urgentReason only while urgent is on', async () => {
    const { form, fields } = formOf(compileFormUncached(screen, bundle), { urgent: false });
    expect(fields.urgentReason.display).toBe('none');
    expect(fields.urgentReason.required).toBe(false);
    form.setValuesIn('urgent', true);
    expect(fields.urgentReason.display).toBe('visible');
    expect(fields.urgentReason.required).toBe(true);
    await expect(form.validate()).rejects.toBeDefined();
    expect(fields.urgentReason.selfErrors).toEqual(['请填写紧急原因']);
  });

  it('marks a requirement checked only at submit grey (提交时必填), following its condition, and still refuses it at submit', async () => {
    const staged: Resource = {
      name: 'req',
      table: 'req',
      title: '申请',
      fields: {
        applicant: { type: 'string', label: '申请人', required: true },
        delivery: { type: 'string', label: '领取方式' },
        address: { type: 'string', label: '邮寄地址', requiredWhen: "delivery === 'post'", requiredOn: ['commit'] },
        reason: { type: 'string', label: '原因', requiredOn: ['commit'] },
      },
    };
    const stagedScreen: FormScreen = {
      id: 'req-form',
      kind: 'form',
      resource: 'req',
      title: '申请',
      sections: [{ fields: ['applicant', 'delivery', 'address', 'reason'] }],
    };
    const schema = compileFormUncached(stagedScreen, { resource: staged, resources: new Map(), dicts: new Map() });
    const { form, fields } = formOf(schema, { delivery: 'online' });
    type Decorator = { asterisk?: boolean; stagedMark?: string };
    const decorator = (name: string) => fields[name].decoratorProps as Decorator;
    // A plain staged requirement is marked by the schema itself, a conditional one by its reaction;
    // neither with the red asterisk of a field required at every save (the required rule's).
    const nodes = fieldsOf(schema);
    expect(nodes.reason['x-decorator-props']).toMatchObject({ stagedMark: '提交时必填' });
    expect((nodes.reason['x-decorator-props'] as Decorator).asterisk).toBeUndefined();
    expect((nodes.address['x-decorator-props'] as Decorator).stagedMark).toBeUndefined();
    expect(nodes.applicant['x-decorator-props']).not.toHaveProperty('stagedMark');
    expect(fields.applicant.required).toBe(true);
    expect(decorator('address').stagedMark).toBeUndefined();
    form.setValuesIn('delivery', 'post');
    expect(decorator('address')).toMatchObject({ stagedMark: '提交时必填' });
    expect(decorator('address').asterisk).toBeUndefined();
    // The mark is not the rule: a draft may still be saved without them …
    expect(fields.address.required).toBe(false);
    form.setValuesIn('applicant', '张三');
    setFormStages(form, stagesOfSave(false));
    await expect(form.validate()).resolves.toBeUndefined();
    // … and the final submit refuses them with their usual messages.
    setFormStages(form, stagesOfSave(true));
    await expect(form.validate()).rejects.toBeDefined();
    expect([fields.address.selfErrors, fields.reason.selfErrors]).toEqual([['请填写邮寄地址'], ['请填写原因']]);
  });

  it("names the mark after the action a requirement waits for (the workflow's label)", () => {
    const field: ResourceField = { type: 'string', label: '整改结果', requiredOn: ['complete'] };
    const withWorkflow = { name: 'x', table: 'x', title: 'x', fields: { result: field } } as unknown as Resource;
    expect(stagedMark(withWorkflow, field)).toBe('complete时必填');
    const labelled = {
      ...withWorkflow,
      workflow: { states: [], initial: 'a', actions: { complete: { from: ['a'], label: '完成整改' } } },
    } as unknown as Resource;
    expect(stagedMark(labelled, field)).toBe('完成整改时必填');
    expect(stagedMark(labelled, { type: 'string', label: '名称', required: true })).toBeUndefined();
  });

  it('greys out in the calendar the days a date bound refuses, following the field it names', () => {
    const { form, fields } = formOf(compileFormUncached(screen, bundle), { publishDate: '2026-03-10' });
    const refused = (day: string) => (fields.expireDate.componentProps as { refusedDay: (day: string) => boolean }).refusedDay(day);
    expect(['2026-03-09', '2026-03-10', '2026-04-01'].map(refused)).toEqual([true, false, false]);
    form.setValuesIn('publishDate', '2026-03-20');
    expect(['2026-03-19', '2026-03-20'].map(refused)).toEqual([true, false]);
    // A field without bounds greys out nothing; no field uses antd's disabledDate (it would drop a typed date unannounced).
    expect((fields.publishDate.componentProps as { refusedDay?: unknown }).refusedDay).toBeUndefined();
    expect(fields.expireDate.componentProps).not.toHaveProperty('disabledDate');
  });

  it("marks a refused day's calendar cell and leaves the others as antd drew them", () => {
    const cell = refusedDayCell((day) => day < '2026-03-10');
    const origin = createElement('div', { className: 'ant-picker-cell-inner' }, '9');
    const day = (date: string) => ({ format: () => date });
    const refused = cell(day('2026-03-09'), { type: 'date', originNode: origin }) as ReactElement<{ className: string }>;
    expect(refused.props.className).toBe('ant-picker-cell-inner engine-date-refused');
    expect(cell(day('2026-03-10'), { type: 'date', originNode: origin })).toBe(origin);
    // The month and year panels are left alone.
    expect(cell(day('2026-02-01'), { type: 'month', originNode: origin })).toBe(origin);
  });

  it('disables a field by an expression', () => {
    const { form, fields } = formOf(compileFormUncached(orderScreen, orderBundle), {});
    expect(fields.note.disabled).toBe(false);
    form.setValuesIn('locked', true);
    expect(fields.note.disabled).toBe(true);
  });

  it('offers the children of the parent choice and clears a value the new parent does not offer', () => {
    const { form, fields } = formOf(compileFormUncached(orderScreen, orderBundle), { province: '53', city: '5302' });
    expect(fields.city.dataSource.map((o): unknown => o.value)).toEqual(['5301', '5302']);
    expect(fields.city.value).toBe('5302');
    form.setValuesIn('province', '52');
    expect(fields.city.dataSource.map((o): unknown => o.value)).toEqual(['5201']);
    expect(fields.city.value).toBeUndefined();
    form.setValuesIn('province', undefined);
    expect(fields.city.dataSource).toEqual([]);
  });

  it('rejects an invalid value with the catalogue message', async () => {
    const { form, fields } = formOf(compileFormUncached(orderScreen, orderBundle), { mobile: '123' });
    await expect(form.validate()).rejects.toBeDefined();
    expect(fields.mobile.selfErrors.length).toBe(1);
    expect(fields.mobile.selfErrors[0]).toMatch(/手机/);
  });
});

describe('attachment field', () => {
  it('states the size limit in its hint: the configured one, else the default', () => {
    expect(uploadHint({ accept: '.pdf,.jpg', maxCount: 5, maxMb: 50 })).toBe('支持 .pdf,.jpg，最多 5 个，单个文件不超过 50 MB');
    expect(uploadHint({ maxMb: DEFAULT_UPLOAD_MAX_MB })).toBe('单个文件不超过 20 MB');
  });
});

describe('payload', () => {
  it("strips ArrayTable's index key from sub-table rows and sends date-times as ISO 8601", () => {
    const withDates: Resource = { ...order, fields: { ...order.fields, at: { type: 'datetime', label: '时间' } } };
    const record = toRecord(
      { resource: withDates, resources: orderBundle.resources },
      { at: '2024-05-06 07:08:09', lines: [{ item: 'a', qty: 1, [ARRAY_TABLE_INDEX_KEY]: 0 }], amount: 3 },
    );
    expect(record.lines).toEqual([{ item: 'a', qty: 1 }]);
    expect(record.at).toMatch(/^2024-05-06T07:08:09[+-]\d\d:\d\d$/);
    expect(record.amount).toBe(3);
  });
});
