/**
 * An open form (a form screen with `submit`): a new record's form on its own, outside any shell —
 * a card centred on a plain backdrop with the screen's links in its header. Its button validates,
 * runs the `check` calls, POSTs the values to `submit.path`, keeps the reply when asked
 * (sessionStorage) and opens the `success` route filled from the reply. A refusal keeps every input
 * and shows the server's message (on the field it names). Embedded in a host page (`embedded`) it
 * is the notice, the form and its button alone; the values the host prefilled are posted too,
 * shown or not.
 */
import { Form as FormilyForm } from '@formily/antd-v5';
import type { Form } from '@formily/core';
import { Alert, Button, Space } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useFeedback } from '../actions/feedback';
import { useEngine } from '../context';
import { compileForm } from '../form/compile';
import { customFieldComponents, SchemaField } from '../form/components';
import { toRecord } from '../form/payload';
import { formValues } from '../form/values';
import { INVALID_FORM_MESSAGE, revealFirstError, showRefusal, useSchemaForm } from '../form/useSchemaForm';
import { EMPTY_TEXT } from '../render/empty';
import type { ScreenComponentProps } from '../screen-props';
import type { FormScreen } from '../../schema/types';
import { OpenPage } from '../ui';
import { fillTemplate } from './templates';

type OpenScreen = FormScreen & { submit: NonNullable<FormScreen['submit']> };

/** Card widths: one-column forms are narrow. */
export const WIDE = 760;
export const NARROW = 560;

/** Confirmation fields (`sameAs`): checked in the form, never sent. */
export function confirmationFields(screen: FormScreen): Set<string> {
  return new Set(screen.sections.flatMap((s) => s.fields.flatMap((f) => (typeof f !== 'string' && f.sameAs ? [f.field] : []))));
}

/** The values an open form posts: the record (prefilled values it does not show included) without its confirmation fields. */
export function postedValues(screen: FormScreen, record: Record<string, unknown>): Record<string, unknown> {
  const skip = confirmationFields(screen);
  return Object.fromEntries(Object.entries(record).filter(([name]) => !skip.has(name)));
}

/**
 * An open form's notice, fields and button: the button validates the form and hands `post` its
 * values (the record without its confirmation fields); a refusal keeps every input and shows the
 * server's message (on the field it names).
 */
export function OpenFormBody({
  bundle,
  prefill,
  notice,
  label,
  post,
}: Pick<ScreenComponentProps, 'bundle' | 'prefill'> & { notice?: string; label?: string; post(values: Record<string, unknown>, form: Form): Promise<void> }) {
  const screen = bundle.screen as FormScreen;
  const feedback = useFeedback();
  const schema = compileForm(screen, bundle);
  const { form } = useSchemaForm({ bundle, mode: 'add', prefill });
  const [saving, setSaving] = useState(false);

  const send = async () => {
    try {
      await form.validate();
    } catch {
      feedback.message.warning(INVALID_FORM_MESSAGE);
      revealFirstError();
      return;
    }
    setSaving(true);
    form.setSubmitting(true);
    try {
      await post(postedValues(screen, toRecord(bundle, formValues(form))), form);
    } catch (error) {
      showRefusal(form, feedback, error);
    } finally {
      form.setSubmitting(false);
      setSaving(false);
    }
  };

  return (
    <>
      {notice ? <Alert type="info" showIcon style={{ marginBottom: 16 }} message={notice} /> : null}
      <FormilyForm form={form} layout="vertical" feedbackLayout="loose" previewTextPlaceholder={EMPTY_TEXT} onAutoSubmit={() => void send()}>
        <SchemaField schema={schema} scope={{ $mode: 'add' }} components={customFieldComponents()} />
      </FormilyForm>
      <Button type="primary" block loading={saving} onClick={() => void send()}>
        {label ?? '提交'}
      </Button>
    </>
  );
}

export default function OpenFormScreen({ bundle, prefill, embedded }: ScreenComponentProps) {
  const screen = bundle.screen as OpenScreen;
  const { submit } = screen;
  const { dataProvider } = useEngine();
  const navigate = useNavigate();
  const narrow = screen.sections.every((s) => (s.columns ?? 2) === 1);

  const post = async (values: Record<string, unknown>, form: Form) => {
    const call = dataProvider.call;
    if (!call) throw new Error('当前页面不能提交');
    for (const check of submit.check ?? []) await call(fillTemplate(check, values), values);
    const reply = (await call(submit.path, values)) ?? {};
    (form as Form & { markClean?(): void }).markClean?.();
    if (submit.keep) sessionStorage.setItem(submit.keep, JSON.stringify(reply));
    void navigate(fillTemplate(submit.success, reply as Record<string, unknown>));
  };

  const body = <OpenFormBody bundle={bundle} prefill={prefill} notice={submit.notice} label={submit.label} post={post} />;
  if (embedded) return <div className="engine-open-form">{body}</div>;
  return (
    <OpenPage
      title={screen.title}
      width={narrow ? NARROW : WIDE}
      extra={
        <Space size={16} wrap>
          {(submit.links ?? []).map((l) => (
            <Link key={l.route} to={l.route}>
              {l.label}
            </Link>
          ))}
        </Space>
      }
    >
      {body}
    </OpenPage>
  );
}
