import { createForm, type Form } from '@formily/core';
import { Schema } from '@formily/react';
import { describe, expect, it } from 'vitest';
import { compileFormUncached } from '../../src/engine/form/compile';
import { createModels, FORM_LAYOUT, formLayout, gridChunks, planOf } from '../../src/engine/form/layout';
import type { FormScreen, Resource } from '../../src/schema/types';

const line: Resource = { name: 'line', table: 'line', title: '明细', fields: { item: { type: 'string', label: '项目' } } };
const resource: Resource = {
  name: 'sheet',
  table: 'sheet',
  title: '表单',
  fields: {
    first: { type: 'string', label: '甲', required: true },
    kind: { type: 'string', label: '类别' },
    name: { type: 'string', label: '名称', required: true },
    note: { type: 'text', label: '备注' },
    extra: { type: 'string', label: '补充', required: true },
    lines: { type: 'children', label: '明细', resource: 'line' },
  },
};
const screen: FormScreen = {
  id: 'sheet-form',
  kind: 'form',
  resource: 'sheet',
  title: '表单',
  sections: [
    { title: '一', fields: ['first', 'kind'] },
    { title: '二', columns: 2, fields: ['name', { field: 'note', span: 2 }, { field: 'extra', when: "kind === 'x'" }] },
    { title: '三', fields: ['lines'] },
  ],
};
const schema = new Schema(compileFormUncached(screen, { resource, resources: new Map([['line', line]]), dicts: new Map() }));
const section = (key: string) => schema.properties![key];

/** The models of section `key` as layout.tsx creates them while the section is not rendered. */
function unrendered(form: Form, key: string) {
  const node = section(key);
  const group = form.createVoidField({ ...node.toFieldProps({ scope: {} }), name: key } as Parameters<Form['createVoidField']>[0]);
  return createModels(form, group, node, {});
}

describe('form layout: sections rendered when reached', () => {
  it('keeps the fields of a section not rendered yet in the form: validated on submit, with their reactions', async () => {
    const form = createForm();
    const models = unrendered(form, 'section_1');
    expect(models.map((f) => f.address.toString())).toEqual(['section_1.grid', 'section_1.grid.name', 'section_1.grid.note', 'section_1.grid.extra']);
    const failedPaths = () =>
      Promise.resolve(form.validate()).then(
        () => [],
        () => form.errors.map((e) => e.path),
      );
    // `extra` is hidden while kind is not x: only `name` is checked.
    expect(await failedPaths()).toEqual(['name']);
    form.setValuesIn('name', '甲');
    form.setValuesIn('kind', 'x');
    expect(await failedPaths()).toEqual(['extra']);
    form.setValuesIn('extra', '乙');
    expect(await failedPaths()).toEqual([]);
    expect(form.values).toMatchObject({ name: '甲', kind: 'x', extra: '乙' });
  });

  it('creates each field once: the component mounting later gets the same model', () => {
    const form = createForm();
    const [, name] = unrendered(form, 'section_1');
    expect(form.createField({ name: 'name', basePath: 'section_1.grid' })).toBe(name);
  });

  it('estimates a section height from its rows and renders sub-table sections at once', () => {
    // name | — ; note (span 2, a text area) ; extra
    expect(planOf(section('section_1'))).toEqual({ lazy: true, height: 60 + 132 + 60 });
    expect(planOf(section('section_2')).lazy).toBe(false);
  });
});

describe('form layout: a long grid cut into chunks', () => {
  // One section of 91 fields in 3 columns: 30 rows of inputs and a text area's row.
  const names = Array.from({ length: 90 }, (_, i) => `f${i}`);
  const long: Resource = {
    name: 'long',
    table: 'long',
    title: '长表单',
    fields: {
      ...Object.fromEntries(names.map((n, i) => [n, { type: 'string', label: `字段${i}`, ...(i === 55 ? { required: true } : {}) }])),
      note: { type: 'text', label: '备注' },
    },
  };
  const longScreen: FormScreen = {
    id: 'long-form',
    kind: 'form',
    resource: 'long',
    title: '长表单',
    sections: [{ title: '基本信息', columns: 3, fields: [...names.slice(0, 30), { field: 'note', span: 3 }, ...names.slice(30)] as [string, ...string[]] }],
  };
  const longSchema = new Schema(compileFormUncached(longScreen, { resource: long, resources: new Map(), dicts: new Map() }));
  const grid = longSchema.properties!.section_0.properties!.grid;

  it('cuts it into chunks of whole rows, every field once and in order', () => {
    const chunks = gridChunks(grid)!;
    expect(chunks.map((c) => c.entries.length)).toEqual([24, 16, 24, 24, 3]);
    // 8 rows; 2 rows, the text area and 3 rows; 8 rows, 8 rows and the last row.
    expect(chunks.map((c) => c.height)).toEqual([480, 120 + 132 + 180, 480, 480, 60]);
    expect(chunks.flatMap((c) => c.entries.map((e) => e.key))).toEqual([...names.slice(0, 30), 'note', ...names.slice(30)]);
  });

  it('leaves a grid up to three chunks tall whole, and a grid with a sub-table', () => {
    expect(gridChunks(section('section_1').properties!.grid)).toBeUndefined();
    expect(gridChunks(section('section_2').properties!.grid)).toBeUndefined();
  });

  it('keeps the fields of a chunk not rendered yet in the form: validated on submit', async () => {
    const form = createForm();
    const sectionField = form.createVoidField({ name: 'section_0' });
    const gridField = form.createVoidField({ name: 'grid', basePath: sectionField.address });
    const third = gridChunks(grid)![2];
    const models = createModels(form, gridField, third.entries, {});
    expect(models.map((f) => f.address.toString())).toEqual(third.entries.map((e) => `section_0.grid.${e.key}`));
    const errors = await Promise.resolve(form.validate()).then(
      () => [],
      () => form.errors.map((e) => e.path),
    );
    expect(errors).toEqual(['f55']);
  });
});

describe('form layout: the label column', () => {
  const withLabel = (label: string): Resource => ({ ...resource, fields: { ...resource.fields, name: { type: 'string', label, required: true } } });
  const widthFor = (label: string) =>
    formLayout(compileFormUncached(screen, { resource: withLabel(label), resources: new Map([['line', line]]), dicts: new Map() })).labelWidth;

  it('is as wide as the longest field label needs, sub-table column titles aside', () => {
    // Two-character labels: the minimum column (the sub-table's 项目 column title is not a label).
    expect(widthFor('名称')).toBe(FORM_LAYOUT.labelWidth);
    // 12 characters (施工单位统一社会信用代码) are shown whole on one line: 12 × 14 px + 34 px.
    expect(widthFor('施工单位统一社会信用代码')).toBe(202);
    // A label longer than the widest column keeps the maximum and ends in an ellipsis.
    expect(widthFor('这是一个非常非常非常非常非常长的字段标签名称')).toBe(224);
  });
});
