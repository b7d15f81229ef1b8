/**
 * The component registry: every name a compiled schema may use (`x-component`, `x-decorator`).
 * Built-ins come from @formily/antd-v5 and widgets.tsx; screens' `component` escape hatch names a
 * component an app registers with `registerFieldComponent`. A new widget is an entry here.
 */
import {
  ArrayTable,
  Checkbox,
  DatePicker,
  FormGrid,
  FormItem,
  Input,
  Password,
  Radio,
  Select,
  TimePicker,
  TreeSelect,
} from '@formily/antd-v5';
import { createSchemaField } from '@formily/react';
import { Typography } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { WizardStep } from './wizard';
import { AreaCascader, AttachmentUpload, BoolSwitch, NumberInput, RefSelect } from './widgets';
import { RichTextInput } from './RichTextInput';

/** A titled block of fields. */
function FormSection({ title, children }: { title?: string; children?: ReactNode }) {
  return (
    <section className="engine-form-section" style={{ marginBottom: 8 }}>
      {title && (
        <Typography.Title level={5} style={{ margin: '8px 0 16px', paddingLeft: 8, borderLeft: '3px solid var(--ant-color-primary, #1677ff)' }}>
          {title}
        </Typography.Title>
      )}
      {children}
    </section>
  );
}

export const BUILTIN_COMPONENTS = {
  ArrayTable,
  AreaCascader,
  AttachmentUpload,
  BoolSwitch,
  Checkbox,
  DatePicker,
  FormGrid,
  FormItem,
  FormSection,
  Input,
  // antd's InputNumber, reading ¥1,234.00 / 待计算 in view mode (Formily's own shows "¥ —").
  NumberPicker: NumberInput,
  Password,
  Radio,
  RefSelect,
  RichTextInput,
  Select,
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
