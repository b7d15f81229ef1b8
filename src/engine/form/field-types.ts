/**
 * How each field type becomes a Formily field: the value type, the registered component's name
 * and its props. Pure data (component names, not components), so compiling needs no React.
 * A new field type is one entry here plus, if it needs one, a component in components.tsx.
 */
import type { ISchema } from '@formily/react';
import { codeLabel, topLevel, type CodeItem } from '../model/codes';
import { PENDING_TEXT } from '../render/empty';
import type { Field, FieldType } from '../../schema/types';

export interface FieldTypeContext {
  field: Field;
  /** The field's code list (dict, multiDict, area). */
  codes: CodeItem[];
  placeholder?: string;
}

type FieldTypeSpec = (ctx: FieldTypeContext) => ISchema;

const options = (codes: readonly CodeItem[]) => topLevel(codes).map(({ value, label, disabled }) => ({ value, label, disabled }));

const number =
  (precision?: number, extra: Record<string, unknown> = {}): FieldTypeSpec =>
  ({ field, placeholder }) => ({
    type: 'number',
    'x-component': 'NumberPicker',
    'x-component-props': {
      precision,
      min: field.min,
      max: field.max,
      placeholder,
      style: { width: '100%' },
      ...(field.readonly ? { emptyText: PENDING_TEXT } : {}),
      ...extra,
    },
  });

export const FIELD_TYPES: Readonly<Record<Exclude<FieldType, 'children'>, FieldTypeSpec>> = {
  string: ({ field, placeholder }) => ({
    type: 'string',
    'x-component': 'Input',
    'x-component-props': { maxLength: field.maxLength, placeholder, allowClear: true },
  }),
  text: ({ field, placeholder }) => ({
    type: 'string',
    'x-component': 'Input.TextArea',
    'x-component-props': { maxLength: field.maxLength, showCount: field.maxLength !== undefined, rows: 4, placeholder },
  }),
  richText: ({ field }) => ({ type: 'string', 'x-component': 'RichTextInput', 'x-component-props': { maxLength: field.maxLength } }),
  int: number(0),
  decimal: number(),
  money: number(2, { prefix: '¥' }),
  date: ({ placeholder }) => ({
    type: 'string',
    'x-component': 'DatePicker',
    'x-component-props': { format: 'YYYY-MM-DD', placeholder, style: { width: '100%' } },
  }),
  datetime: ({ placeholder }) => ({
    type: 'string',
    'x-component': 'DatePicker',
    'x-component-props': { showTime: true, format: 'YYYY-MM-DD HH:mm:ss', placeholder, style: { width: '100%' } },
  }),
  bool: () => ({ type: 'boolean', 'x-component': 'BoolSwitch' }),
  // Options are the top level of a tree; a nested code set otherwise (a copied sub-category, one the
  // server filled in) still shows its label, in the input and in view mode (`codes`: inputs.tsx CodeSelect).
  dict: ({ codes, placeholder }) => ({
    type: 'string',
    enum: options(codes),
    'x-component': 'Select',
    'x-component-props': {
      allowClear: true,
      placeholder,
      codes,
      labelRender: ({ value, label }: { value: unknown; label?: unknown }) => (label !== undefined && label !== value ? label : codeLabel(codes, value)),
    },
  }),
  multiDict: ({ codes, placeholder }) => ({
    type: 'array',
    enum: options(codes),
    'x-component': 'Select',
    'x-component-props': { mode: 'multiple', allowClear: true, placeholder },
  }),
  area: ({ codes, placeholder }) => ({
    type: 'string',
    'x-component': 'AreaCascader',
    'x-component-props': { dataSource: codes, placeholder, allowClear: true },
  }),
  ref: ({ field, placeholder }) => ({
    type: 'string',
    'x-component': 'RefSelect',
    'x-component-props': {
      resource: field.ref,
      placeholder: placeholder ?? '输入名称或编号搜索',
      allowClear: true,
      copy: field.copy,
      where: field.refWhere,
      pickOnly: field.pickOnly,
    },
  }),
  attachment: ({ field }) => ({ type: 'array', 'x-component': 'AttachmentUpload', 'x-component-props': { accept: field.accept, maxCount: field.maxCount } }),
};
