/**
 * The form's ref field (`RefSelect`): the id of a record of another resource, chosen with
 * RefPicker.tsx; it copies the chosen record's fields into fields beside it (`copy`), may take the
 * only record there is (`pickOnly`), and reads as the record's label in view mode. It loads with
 * the other widgets a form loads on first use (widgets.tsx, which exports it).
 */
import { PreviewText } from '@formily/antd-v5';
import { connect, mapReadPretty, useField, useForm } from '@formily/react';
import { refLabelText } from '../render/RefName';
import { useEffect, useMemo, useRef } from 'react';
import { useFeedback } from '../actions/feedback';
import { useEngine } from '../context';
import { toEngineError } from '../data/provider';
import { useRefLabel, useRefOptions } from '../data/hooks';
import { RefPicker, type RefPickerProps } from './RefPicker';
import { copyPairs } from '../../schema/model';
import type { Field } from '../../schema/types';

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
