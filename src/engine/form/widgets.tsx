/**
 * Engine-specific field components: thin adapters that store what the server stores (a leaf
 * area code, attachment records, a referenced id, a boolean) over @formily/antd-v5 and antd
 * widgets, each with its read-pretty form for view mode. This module is what a form loads on first
 * use of them (components.tsx): the attachment field is AttachmentUpload.tsx, exported from here.
 */
import { PreviewText } from '@formily/antd-v5';
import { connect, mapReadPretty, useField, useForm } from '@formily/react';
import { Cascader as AntdCascader } from 'antd';
import { refLabelText } from '../render/RefName';
import { useEffect, useMemo, useRef } from 'react';
import { useFeedback } from '../actions/feedback';
import { codePath, type CodeItem } from '../model/codes';
import { useEngine } from '../context';
import { toEngineError } from '../data/provider';
import { useRefLabel, useRefOptions } from '../data/hooks';
import { RefPicker, type RefPickerProps } from './RefPicker';
import { copyPairs } from '../../schema/model';
import type { Field } from '../../schema/types';

// numbers and bool: inputs.tsx (every form has them; this module loads when a form needs its widgets)
export { BoolSwitch, BoolText, NumberInput } from './inputs';
export { AttachmentUpload } from './AttachmentUpload';

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

// ---------------------------------------------------------------------------------------------
// ref: the id of a record of another resource, chosen from its list

interface RefProps extends RefPickerProps {
  /** Fields copied from the chosen record into fields beside this one (the field's `copy`: a list of same-named fields, or a map here → there). */
  copy?: Field['copy'];
  /** A new record takes the only record there is to choose from. */
  pickOnly?: boolean;
}

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

/** The ref field's input: a RefPicker that copies the chosen record's fields when asked and may pick the only record there is. */
function RefSelectInput({ resource, copy, where, pickOnly, value, onChange, ...rest }: RefProps) {
  const pairs = useMemo(() => copyPairs({ copy }), [copy]);
  const { options, isLoading } = useRefOptions(resource, '', where);
  const field = useField();
  const form = useForm();
  const { dataProvider } = useEngine();
  const feedback = useFeedback();
  // A reference set before the user touched it (a prefilled new record) fills its empty snapshot fields once.
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current || !pairs.length || typeof value !== 'string' || !value) return;
    filled.current = true;
    const parent = field.path.parent();
    if (pairs.some(([here]) => !isBlank(form.getValuesIn(parent.concat(here))))) return;
    dataProvider.getOne(resource, value).then(
      (row) => pairs.forEach(([here, there]) => form.setValuesIn(parent.concat(here), row[there] ?? undefined)),
      () => undefined,
    );
  }, [pairs, value, resource, field, form, dataProvider]);

  // pickOnly: an empty reference takes the one record the user can choose from (once, not after a clear).
  const picked = useRef(false);
  useEffect(() => {
    if (!pickOnly || picked.current || isLoading || !isBlank(value)) return;
    picked.current = true;
    if (options.length === 1) choose(options[0].value, options[0]);
  });

  const choose = (next: unknown, option?: unknown) => {
    onChange?.(next, option as never);
    if (!pairs.length) return;
    const siblings = (values: Record<string, unknown>) => {
      for (const [here, there] of pairs) form.setValuesIn(field.path.parent().concat(here), values[there] ?? undefined);
    };
    if (!next) return siblings({});
    dataProvider.getOne(resource, String(next)).then(siblings, (err) => void feedback.message.error(toEngineError(err).message));
  };
  return <RefPicker resource={resource} where={where} {...rest} value={value} onChange={choose} />;
}

function RefText({ resource, value }: RefProps) {
  const id = typeof value === 'string' && value ? value : undefined;
  const label = useRefLabel(resource, id);
  return <PreviewText.Input value={id ? refLabelText(label) : ''} />;
}

export const RefSelect = connect(RefSelectInput, mapReadPretty(RefText));
