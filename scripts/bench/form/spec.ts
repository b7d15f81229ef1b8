/**
 * The 300-field form of bench:form, generated in code: one resource, one form screen and three
 * dictionaries in the engine's schema format (schemas/meta), plus the structured facts the
 * hand-written baseline is generated from (conditions as data, so both sides get the same logic).
 *
 * Layout: 10 sections of 30 fields, 2–4 grid columns, full-width text areas. Field 0 (`ctlKind`,
 * a dictionary) and field 1 (`ctlFlag`, a switch) drive the reactions: ~30 fields shown while
 * ctlKind is 1 (the default), ~12 shown only while it is 2 (hidden at first), ~20 required while
 * ctlFlag is on, ~10 disabled while it is off, and the section 9 shown while ctlFlag is on.
 * About a quarter of the fields are required and about half of the text inputs carry a catalogue
 * rule (validators/).
 *
 * Pure and deterministic: the node script (schema files, baseline code) and nothing else use it.
 */
import type { Dict, FieldItem, FormScreen, Resource, RuleRef } from '../../../src/schema/types';

export const FIELD_COUNT = 300;
export const SECTION_COUNT = 10;
export const RESOURCE_NAME = 'bench-form';
export const SCREEN_ID = 'bench-form-form';

export type BenchFieldType = 'string' | 'text' | 'int' | 'decimal' | 'date' | 'dict' | 'bool';

/** `field === value`: the only condition shape the bench uses (expression + JavaScript from it). */
export interface Condition {
  field: string;
  value: string | boolean;
}

export interface BenchField {
  name: string;
  type: BenchFieldType;
  label: string;
  required?: boolean;
  rules?: RuleRef[];
  maxLength?: number;
  min?: number;
  max?: number;
  dict?: string;
  default?: string | boolean;
  span?: number;
  when?: Condition;
  requiredWhen?: Condition;
  disabledWhen?: Condition;
}

export interface BenchSection {
  title: string;
  columns: number;
  when?: Condition;
  fields: BenchField[];
}

export interface BenchDict {
  name: string;
  title: string;
  items: { value: string; label: string }[];
}

export interface BenchForm {
  sections: BenchSection[];
  dicts: BenchDict[];
  /** The text field the keystroke measurement types into (by label, the input's aria-label). */
  typingField: BenchField;
}

const TYPE_LABELS: Record<BenchFieldType, string> = {
  string: '文本',
  text: '备注',
  int: '整数',
  decimal: '小数',
  date: '日期',
  dict: '选项',
  bool: '开关',
};

/** The repeating pattern of field types (20 per round: 9 string, 3 dict, 2 int/decimal/date, 1 bool/text). */
const PATTERN: readonly BenchFieldType[] = [
  'string',
  'string',
  'int',
  'string',
  'dict',
  'date',
  'string',
  'bool',
  'string',
  'decimal',
  'string',
  'dict',
  'string',
  'int',
  'text',
  'date',
  'string',
  'decimal',
  'dict',
  'string',
];

const STRING_RULES: readonly (RuleRef | undefined)[] = [
  'email',
  undefined,
  'mobile',
  'postalCode',
  undefined,
  'deviceCode',
  'phoneOrLandline',
  undefined,
  'idCard',
  'noLowercase',
  'url',
  undefined,
];

const SECTION_COLUMNS = [2, 3, 2, 4, 3, 2, 3, 2, 4, 2];

export const DICTS: readonly BenchDict[] = [
  { name: 'bench-kind', title: '类别', items: ['锅炉', '压力容器', '电梯', '起重机械'].map((label, i) => ({ value: String(i + 1), label })) },
  { name: 'bench-grade', title: '等级', items: Array.from({ length: 10 }, (_, i) => ({ value: String(i + 1), label: `${i + 1}级` })) },
  {
    name: 'bench-region',
    title: '区域',
    items: Array.from({ length: 30 }, (_, i) => ({ value: `3302${String(i + 1).padStart(2, '0')}`, label: `区域${i + 1}` })),
  },
];

const KIND_IS_1: Condition = { field: 'ctlKind', value: '1' };
const KIND_IS_2: Condition = { field: 'ctlKind', value: '2' };
const FLAG_ON: Condition = { field: 'ctlFlag', value: true };
const FLAG_OFF: Condition = { field: 'ctlFlag', value: false };

function generatedField(index: number, columns: number): BenchField {
  const type = PATTERN[index % PATTERN.length];
  const no = String(index + 1).padStart(3, '0');
  const field: BenchField = { name: `f${no}`, type, label: `${TYPE_LABELS[type]}${no}` };
  if (index % 4 === 0) field.required = true;
  switch (type) {
    case 'string': {
      field.maxLength = index % 3 === 0 ? 50 : 100;
      const rule = STRING_RULES[index % STRING_RULES.length];
      if (rule) field.rules = [rule];
      if (index % 7 === 0) field.span = Math.min(2, columns);
      break;
    }
    case 'text':
      field.maxLength = 500;
      field.span = columns;
      break;
    case 'int':
      field.min = 0;
      field.max = 9999;
      if (index % 3 === 0) field.rules = ['nonNegativeInteger'];
      break;
    case 'decimal':
      if (index % 3 === 0) field.rules = ['amount'];
      break;
    case 'dict':
      field.dict = DICTS[1 + (index % 2)].name;
      break;
  }
  if (index % 10 === 5) field.when = KIND_IS_1;
  if (index % 25 === 12) field.when = KIND_IS_2;
  if (index % 15 === 7 && !field.required) field.requiredWhen = FLAG_ON;
  if (index % 30 === 20) field.disabledWhen = FLAG_OFF;
  return field;
}

export function generateForm(): BenchForm {
  const sections: BenchSection[] = [];
  let index = 0;
  for (let s = 0; s < SECTION_COUNT; s++) {
    const columns = SECTION_COLUMNS[s];
    const fields: BenchField[] = [];
    while (fields.length < FIELD_COUNT / SECTION_COUNT) {
      if (index === 0) fields.push({ name: 'ctlKind', type: 'dict', label: '设备类别', dict: 'bench-kind', required: true, default: '1' });
      else if (index === 1) fields.push({ name: 'ctlFlag', type: 'bool', label: '启用扩展信息', default: true });
      else fields.push(generatedField(index, columns));
      index++;
    }
    sections.push({ title: `第${s + 1}部分`, columns, fields, ...(s === 8 ? { when: FLAG_ON } : {}) });
  }
  const all = sections.flatMap((s) => s.fields);
  // A plain text field in the middle of the form without a reaction: the keystroke target.
  const typingField = all.find((f, i) => i >= 150 && f.type === 'string' && !f.when && !f.disabledWhen && f.rules?.[0] === 'deviceCode')!;
  return { sections, dicts: [...DICTS], typingField };
}

/** The fields of the one-section form: a round of 30, ten rounds (20 text, 4 numbers, 3 selects, 2 dates, 1 switch). */
const ONE_SECTION_ROUND = (
  'string string dict string int string string date string string decimal string string dict string ' +
  'string bool string int string string date string string dict string decimal string string string'
).split(' ') as readonly BenchFieldType[];
const ONE_SECTION_COLUMNS = 3;
const RULED: readonly RuleRef[] = ['email', 'mobile', 'postalCode', 'deviceCode', 'phoneOrLandline', 'idCard', 'noLowercase', 'url'];

/**
 * The other form of bench:form: the same 300 fields' worth in ONE section (one grid of 3 columns) —
 * 200 text fields, 30 of them required with a catalogue rule; 40 numbers; 30 dictionary selects;
 * 20 dates; 10 switches; 20 text fields shown only while the select before them holds its first
 * value (no select has a default: hidden at first). Nothing to cut into sections.
 */
export function generateOneSectionForm(): BenchForm {
  const fields: BenchField[] = [];
  let lastDict: BenchField | undefined;
  let strings = 0;
  let required = 0;
  let conditional = 0;
  for (let index = 0; index < FIELD_COUNT; index++) {
    const type = ONE_SECTION_ROUND[index % ONE_SECTION_ROUND.length];
    const no = String(index + 1).padStart(3, '0');
    const field: BenchField = { name: `f${no}`, type, label: `${TYPE_LABELS[type]}${no}` };
    switch (type) {
      case 'string':
        field.maxLength = index % 3 === 0 ? 50 : 100;
        // The text field right after a select depends on it (the first 20 such).
        if (lastDict && fields.at(-1) === lastDict && conditional < 20) {
          field.when = { field: lastDict.name, value: DICTS.find((d) => d.name === lastDict!.dict)!.items[0].value };
          conditional++;
        } else if (strings++ % 6 === 1 && required < 30) {
          field.required = true;
          field.rules = [RULED[required % RULED.length]];
          required++;
        }
        if (index % 11 === 0) field.span = 2;
        break;
      case 'int':
        field.min = 0;
        field.max = 9999;
        break;
      case 'dict':
        field.dict = DICTS[1 + (index % 2)].name;
        lastDict = field;
        break;
    }
    fields.push(field);
  }
  const typingField = fields.find((f, i) => i >= 150 && f.type === 'string' && !f.when && !f.required)!;
  return { sections: [{ title: '基本信息', columns: ONE_SECTION_COLUMNS, fields }], dicts: [...DICTS], typingField };
}

// ---------------------------------------------------------------------------------------------
// The engine's format

/** `ctlKind === '1'` in the engine's expression language. */
export const expression = ({ field, value }: Condition): string => `${field} === ${typeof value === 'string' ? `'${value}'` : String(value)}`;

const MASKS: Partial<Record<string, 'idCard' | 'mobile' | 'phone'>> = { idCard: 'idCard', mobile: 'mobile', phoneOrLandline: 'phone' };
const maskOf = (f: BenchField) => f.rules?.map((r) => (typeof r === 'string' ? MASKS[r] : undefined)).find(Boolean);

export function toResource(form: BenchForm): Resource {
  const fields: Resource['fields'] = {};
  for (const f of form.sections.flatMap((s) => s.fields)) {
    fields[f.name] = {
      type: f.type,
      label: f.label,
      ...(f.required ? { required: true } : {}),
      ...(f.requiredWhen ? { requiredWhen: expression(f.requiredWhen) } : {}),
      ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}),
      ...(f.min !== undefined ? { min: f.min } : {}),
      ...(f.max !== undefined ? { max: f.max } : {}),
      ...(f.dict ? { dict: f.dict } : {}),
      ...(f.rules ? { rules: f.rules } : {}),
      ...(f.default !== undefined ? { default: f.default } : {}),
      // The schema lint asks a field holding an ID card or phone number how it is masked (server reads only).
      ...(maskOf(f) ? { mask: maskOf(f) } : {}),
    };
  }
  return { $schema: '../meta/resource.schema.json', name: RESOURCE_NAME, table: 'bench_form', title: '性能基准表单', fields, scope: 'unit' };
}

export function toScreen(form: BenchForm): FormScreen {
  const ref = (f: BenchField): string | FieldItem => {
    const item: FieldItem = {
      field: f.name,
      ...(f.span !== undefined ? { span: f.span } : {}),
      ...(f.when ? { when: expression(f.when) } : {}),
      ...(f.disabledWhen ? { disabledWhen: expression(f.disabledWhen) } : {}),
    };
    return Object.keys(item).length === 1 ? f.name : item;
  };
  return {
    $schema: '../meta/screen.schema.json',
    id: SCREEN_ID,
    kind: 'form',
    resource: RESOURCE_NAME,
    title: '性能基准表单',
    sections: form.sections.map((s) => ({
      title: s.title,
      columns: s.columns,
      ...(s.when ? { when: expression(s.when) } : {}),
      fields: s.fields.map(ref) as [FieldItem, ...FieldItem[]],
    })) as FormScreen['sections'],
    actions: ['save', 'back'],
    modes: ['add', 'edit', 'view'],
  };
}

export const toDict = (d: BenchDict): Dict => ({ $schema: '../meta/dict.schema.json', name: d.name, title: d.title, items: d.items as Dict['items'] });
