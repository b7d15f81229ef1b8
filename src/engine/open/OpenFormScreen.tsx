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
import { Alert, Button, Card, Space } from 'antd';
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
import { fillTemplate } from './templates';

type OpenScreen = FormScreen & { submit: NonNullable<FormScreen['submit']> };

/** Card widths: one-column forms are narrow. */
const WIDE = 760;
const NARROW = 560;

/** Confirmation fields (`sameAs`): checked in the form, never sent. */
export function confirmationFields(screen: FormScreen): Set<string> {
  return new Set(screen.sections.flatMap((s) => s.fields.flatMap((f) => (typeof f !== 'string' && f.sameAs ? [f.field] : []))));
}

/** The values an open form posts: the record (prefilled values it does not show included) without its confirmation fields. */
export function postedValues(screen: FormScreen, record: Record<string, unknown>): Record<string, unknown> {
  const skip = confirmationFields(screen);
  return Object.fromEntries(Object.entries(record).filter(([name]) => !skip.has(name)));
}

export default function OpenFormScreen({ bundle, prefill, embedded }: ScreenComponentProps) {
  const screen = bundle.screen as OpenScreen;
  const { submit } = screen;
  const { dataProvider } = useEngine();
  const feedback = useFeedback();
  const navigate = useNavigate();
  const schema = compileForm(screen, bundle);
  const { form } = useSchemaForm({ bundle, mode: 'add', prefill });
  const [saving, setSaving] = useState(false);
  const narrow = screen.sections.every((s) => (s.columns ?? 2) === 1);

  const send = async () => {
    try {
      await form.validate();
    } catch {
      feedback.message.warning(INVALID_FORM_MESSAGE);
      revealFirstError();
      return;
    }
    const call = dataProvider.call;
    if (!call) return void feedback.message.error('当前页面不能提交');
    setSaving(true);
    form.setSubmitting(true);
    try {
      const values = postedValues(screen, toRecord(bundle, formValues(form)));
      for (const check of submit.check ?? []) await call(fillTemplate(check, values), values);
      const reply = (await call(submit.path, values)) ?? {};
      (form as Form & { markClean?(): void }).markClean?.();
      if (submit.keep) sessionStorage.setItem(submit.keep, JSON.stringify(reply));
      void navigate(fillTemplate(submit.success, reply as Record<string, unknown>));
    } catch (error) {
      showRefusal(form, feedback, error);
    } finally {
      form.setSubmitting(false);
      setSaving(false);
    }
  };

  const body = (
    <>
      {submit.notice ? <Alert type="info" showIcon style={{ marginBottom: 16 }} message={submit.notice} /> : null}
      <FormilyForm form={form} layout="vertical" feedbackLayout="loose" previewTextPlaceholder={EMPTY_TEXT} onAutoSubmit={() => void send()}>
        <SchemaField schema={schema} scope={{ $mode: 'add' }} components={customFieldComponents()} />
      </FormilyForm>
      <Button type="primary" block loading={saving} onClick={() => void send()}>
        {submit.label ?? '提交'}
      </Button>
    </>
  );
  if (embedded) return <div className="engine-open-form">{body}</div>;
  return (
    <div className="engine-open-page" style={{ minHeight: '100vh', background: '#f0f2f5', padding: '32px 16px', boxSizing: 'border-box' }}>
      <Card
        title={screen.title}
        style={{ maxWidth: narrow ? NARROW : WIDE, margin: '0 auto' }}
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
      </Card>
    </div>
  );
}
