/**
 * Engine-specific field components: thin adapters that store what the server stores (a leaf
 * area code, attachment records, a referenced id, a boolean) over @formily/antd-v5 and antd
 * widgets, each with its read-pretty form for view mode. This module is what a form loads on first
 * use of them (components.tsx): here the area cascader; the attachment field is
 * AttachmentUpload.tsx and the ref field RefSelect.tsx, exported from here so they load together.
 */
import { PreviewText } from '@formily/antd-v5';
import { connect, mapReadPretty } from '@formily/react';
import { Cascader as AntdCascader } from 'antd';
import { useMemo } from 'react';
import { codePath, type CodeItem } from '../model/codes';

// numbers and bool: inputs.tsx (every form has them; this module loads when a form needs its widgets)
export { BoolSwitch, BoolText, NumberInput } from './inputs';
export { AttachmentUpload } from './AttachmentUpload';
export { RefSelect } from './RefSelect';
export { OptionTree } from './OptionTree';

// ---------------------------------------------------------------------------------------------
// area: a leaf code shown as a path through the dictionary's tree

interface AreaProps {
  value?: string | null;
  onChange?: (value: string | undefined) => void;
  dataSource?: CodeItem[];
  placeholder?: string;
  allowClear?: boolean;
  disabled?: boolean;
  /** The field's label (the form compiler sets it): the cascader's input is named by it. */
  'aria-label'?: string;
}

function AreaCascaderInput({ value, onChange, dataSource = [], placeholder, allowClear, disabled, 'aria-label': ariaLabel }: AreaProps) {
  const path = useMemo(() => codePath(dataSource, value).map((i) => i.value), [dataSource, value]);
  return (
    <AntdCascader
      aria-label={ariaLabel}
      placeholder={placeholder}
      allowClear={allowClear}
      disabled={disabled}
      options={dataSource}
      value={path}
      changeOnSelect
      onChange={(next: unknown) => onChange?.(Array.isArray(next) && next.length ? String(next[next.length - 1]) : undefined)}
    />
  );
}

function AreaText({ value, dataSource = [] }: AreaProps) {
  return (
    <PreviewText.Input
      value={
        codePath(dataSource, value)
          .map((i) => i.label)
          .join(' / ') ||
        (value ?? '')
      }
    />
  );
}

export const AreaCascader = connect(AreaCascaderInput, mapReadPretty(AreaText));
