/**
 * Asks for the fields a workflow action declares (`input`, e.g. a review result) — and the
 * opinion when the action takes one — in one dialog before the action runs. The fields render as
 * in a form (the resource's widget, dictionary and catalogue rules), each required; a readonly
 * field is editable here because the action is what sets it.
 */
import { Form as FormilyForm } from '@formily/antd-v5';
import { createForm, type Form } from '@formily/core';
import type { ISchema } from '@formily/react';
import { Modal } from 'antd';
import { useMemo, useState } from 'react';
import { REQUIRED_MESSAGE } from '../../../validators';
import { compileFormUncached } from '../form/compile';
import { customFieldComponents, SchemaField } from '../form/components';
import type { ScreenBundle } from '../registry/registry';
import type { FormScreen, Resource } from '../../schema/types';
import type { ResolvedAction } from './actions';
import { OPINION_MAX_LENGTH } from './OpinionDialog';

/** What the dialog needs to render fields: the resource and the dictionaries of its fields. */
export type InputSources = Pick<ScreenBundle, 'resource' | 'resources' | 'dicts'>;

/** Form key of the opinion (not a field of any resource). */
const OPINION_KEY = '__opinion';

/** The Formily schema of an action's input fields (plus the opinion). Pure. */
export function actionInputForm(action: Pick<ResolvedAction, 'name' | 'label' | 'input' | 'opinion'>, sources: InputSources): ISchema {
  const names = action.input ?? [];
  const fields = { ...sources.resource.fields };
  for (const name of names) {
    const field = fields[name];
    if (field) fields[name] = { ...field, readonly: false, required: true };
  }
  const resource: Resource = { ...sources.resource, fields };
  const screen: FormScreen = {
    id: `__action-input:${resource.name}:${action.name}`,
    kind: 'form',
    resource: resource.name,
    title: action.label,
    sections: [{ columns: 1, fields: names as FormScreen['sections'][number]['fields'] }],
  };
  const schema = compileFormUncached(screen, { ...sources, resource });
  if (!action.opinion) return schema;
  const section = (schema.properties as Record<string, ISchema>).section_0;
  const grid = (section.properties as Record<string, ISchema>).grid;
  grid.properties = {
    ...(grid.properties as Record<string, ISchema>),
    [OPINION_KEY]: {
      type: 'string',
      title: '审核意见',
      'x-decorator': 'FormItem',
      'x-component': 'Input.TextArea',
      'x-component-props': {
        rows: 3,
        maxLength: OPINION_MAX_LENGTH,
        showCount: true,
        placeholder: action.opinion === 'required' ? '请输入审核意见' : '请输入审核意见（选填）',
        'aria-label': '审核意见',
      },
      ...(action.opinion === 'required' ? { 'x-validator': [{ required: true, message: REQUIRED_MESSAGE }] } : {}),
    },
  };
  return schema;
}

/** What the dialog answers: the field values by name and the opinion. */
export interface ActionInputAnswer {
  values: Record<string, unknown>;
  opinion?: string;
}

interface ActionInputDialogProps {
  action: ResolvedAction;
  sources: InputSources;
  onOk: (answer: ActionInputAnswer) => void;
  onCancel: () => void;
}

/** Rendered while open only (a new form per request). */
export default function ActionInputDialog({ action, sources, onOk, onCancel }: ActionInputDialogProps) {
  const schema = useMemo(() => actionInputForm(action, sources), [action, sources]);
  const [form] = useState<Form>(() => createForm());
  const [checking, setChecking] = useState(false);

  const submit = async () => {
    setChecking(true);
    try {
      await form.validate();
    } catch {
      return;
    } finally {
      setChecking(false);
    }
    const { [OPINION_KEY]: opinion, ...values } = form.values as Record<string, unknown>;
    const text = typeof opinion === 'string' ? opinion.trim() : '';
    onOk({ values, opinion: text || undefined });
  };

  return (
    <Modal
      open
      title={action.label}
      okText="确定"
      cancelText="取消"
      destroyOnHidden
      confirmLoading={checking}
      onOk={() => void submit()}
      onCancel={onCancel}
      width={560}
    >
      <FormilyForm form={form} layout="vertical" feedbackLayout="loose">
        <SchemaField schema={schema} components={customFieldComponents()} />
      </FormilyForm>
    </Modal>
  );
}
