/**
 * The component registry: every name a compiled schema may use (`x-component`, `x-decorator`).
 * Built-ins come from @formily/antd-v5 and widgets.tsx; screens' `component` escape hatch names a
 * component an app registers with `registerFieldComponent`. A new widget is an entry here.
 */
import { Input, TimePicker } from '@formily/antd-v5';
import { createSchemaField } from '@formily/react';
import type { ComponentType } from 'react';
import { FormItem } from './FormItem';
import { BoolSwitch, CodeSelect, DatePicker, NumberInput } from './inputs';
import { FormGrid, FormSection } from './layout';
import { lazyWidget } from './lazy-widget';
import { SmsCodeField, StrengthPassword } from '../open/widgets';
import { WizardStep } from './wizard';

// Widgets few forms use load on first use (keep them out of the static imports above).
const ARRAY_MEMBERS = ['Column', 'Addition', 'Index', 'Remove', 'MoveUp', 'MoveDown', 'SortHandle'];
const ArrayTable = lazyWidget(
  () => import('./ScrollableArrayTable'),
  (m) => m.ScrollableArrayTable,
  ARRAY_MEMBERS,
);
const Checkbox = lazyWidget(
  () => import('@formily/antd-v5/esm/checkbox'),
  (m) => m.Checkbox,
  ['Group'],
);
const Password = lazyWidget(
  () => import('@formily/antd-v5/esm/password'),
  (m) => m.Password,
);
const Radio = lazyWidget(
  () => import('@formily/antd-v5/esm/radio'),
  (m) => m.Radio,
  ['Group'],
);
const TreeSelect = lazyWidget(
  () => import('@formily/antd-v5/esm/tree-select'),
  (m) => m.TreeSelect,
);
const loadWidgets = () => import('./widgets');
const AreaCascader = lazyWidget(loadWidgets, (m) => m.AreaCascader);
const AttachmentUpload = lazyWidget(loadWidgets, (m) => m.AttachmentUpload);
const RefSelect = lazyWidget(loadWidgets, (m) => m.RefSelect);
const OptionTree = lazyWidget(loadWidgets, (m) => m.OptionTree);
const RichTextInput = lazyWidget(
  () => import('./RichTextInput'),
  (m) => m.RichTextInput,
);

export const BUILTIN_COMPONENTS = {
  ArrayTable,
  AreaCascader,
  AttachmentUpload,
  BoolSwitch,
  Checkbox,
  // Formily's DatePicker, greying out the days a date bound refuses (inputs.tsx).
  DatePicker,
  FormGrid,
  // Formily's FormItem, with the grey mark of a requirement checked only at submit (FormItem.tsx).
  FormItem,
  FormSection,
  Input,
  // antd's InputNumber, reading ¥1,234.00 / 待计算 in view mode (Formily's own shows "¥ —").
  NumberPicker: NumberInput,
  // A checkable tree of options an API path answers (a field's `optionTree`).
  OptionTree,
  Password,
  Radio,
  RefSelect,
  RichTextInput,
  // Formily's Select; a code field's view mode labels any code of its tree.
  Select: CodeSelect,
  SmsCodeField,
  StrengthPassword,
  TimePicker,
  TreeSelect,
  WizardStep,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds components of any props
type AnyComponent = ComponentType<any>;

const custom: Record<string, AnyComponent> = {};

/** Registers a custom field component by the name screens use in `component`. */
export function registerFieldComponent(name: string, component: AnyComponent): void {
  if (name in BUILTIN_COMPONENTS) throw new Error(`'${name}' is a built-in component`);
  custom[name] = component;
}

export function fieldComponentNames(): string[] {
  return [...Object.keys(BUILTIN_COMPONENTS), ...Object.keys(custom)];
}

/** Formily's SchemaField over the registry (custom components passed per render, so late registrations count). */
export const SchemaField = createSchemaField({ components: BUILTIN_COMPONENTS });

export const customFieldComponents = (): Record<string, AnyComponent> => custom;
