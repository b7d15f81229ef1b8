/**
 * The form model of a form or wizard screen: a Formily form created once per record (edit/view)
 * or with the resource's defaults (add), with deferred validation, dirty tracking and submit.
 * A failed save keeps every input and shows the server's message (on the field it names).
 */
import { createForm, isField, onFieldInputValueChange, type Form } from '@formily/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useEngine } from '../context';
import { useInvalidateResource } from '../data/hooks';
import { toEngineError, type RecordData } from '../data/provider';
import type { ScreenBundle } from '../registry/registry';
import type { EditMode } from '../../schema/types';
import { confirm, useFeedback } from '../actions/feedback';
import { defaultValues } from './compile';
import { toRecord } from './payload';
import { setFormStages, stagesOfSave } from './requirements';
import { deferredValidation } from './rules';
import { showOnce } from './OnceShown';

export const INVALID_FORM_MESSAGE = '请检查表单中标红的内容';

export interface SchemaFormController {
  form: Form;
  /**
   * Validates `pattern` (default: every field), asks `confirm` (the action's question) once the
   * input is valid, and saves; resolves with the saved record, or null.
   */
  submit(options: { commit: boolean; label: string; validate?: string; confirm?: string }): Promise<RecordData | null>;
  /** Whether the user changed something not saved yet. */
  isDirty(): boolean;
}

interface Options {
  bundle: ScreenBundle;
  mode: EditMode;
  record?: RecordData;
  /** Initial values of a new record beyond the resource defaults (form `prefill`). */
  prefill?: Record<string, unknown>;
  onDirtyChange?: (dirty: boolean) => void;
}

/** A form or wizard screen's own initial values for new records. */
const screenValues = (screen: ScreenBundle['screen']): Record<string, unknown> =>
  'initialValues' in screen && screen.initialValues ? screen.initialValues : {};

/**
 * Brings the first field showing an error into view and puts the cursor in it, after the form has
 * rendered its messages (on a failed save the user should not have to look for what is wrong).
 */
export function revealFirstError(frames = 10): void {
  requestAnimationFrame(() => {
    // The first visible one: kept-alive tabs hold other forms, hidden.
    const item = [...document.querySelectorAll<HTMLElement>('.ant-formily-item-error')].find((el) => el.offsetParent !== null);
    // A section not rendered yet renders on its fields' errors (layout.tsx): give it a few frames.
    if (!item) return void (frames > 1 && revealFirstError(frames - 1));
    item.scrollIntoView({ block: 'center', behavior: 'smooth' });
    item.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, [tabindex="0"]')?.focus({ preventScroll: true });
  });
}

/** A refused save or submit: the server's message, on the field it names too, and that field brought into view. */
export function showRefusal(form: Form, feedback: ReturnType<typeof useFeedback>, error: unknown): void {
  const failure = toEngineError(error);
  feedback.message.error(failure.message);
  const field = failure.field ? form.query(failure.field).take() : undefined;
  if (isField(field)) field.setFeedback({ type: 'error', code: 'EffectError', messages: [failure.message] });
  revealFirstError();
}

/** What a form over a `source` posts: the values of the fields the screen declares, and the id of the record it edits. */
export function sourceBody(bundle: Pick<ScreenBundle, 'screen'>, values: Record<string, unknown>, id: unknown): Record<string, unknown> {
  const own = bundle.screen.kind === 'form' ? Object.keys(bundle.screen.fields ?? {}) : [];
  const body: Record<string, unknown> = Object.fromEntries(
    own.filter((name) => values[name] !== undefined && values[name] !== null).map((name) => [name, values[name]]),
  );
  if (id !== undefined && id !== null && id !== '') body.id = id;
  return body;
}

export function useSchemaForm({ bundle, mode, record, prefill, onDirtyChange }: Options): SchemaFormController {
  const { dataProvider, sessionValues } = useEngine();
  const feedback = useFeedback();
  const invalidate = useInvalidateResource();
  const dirtyRef = useRef(onDirtyChange);
  useEffect(() => {
    dirtyRef.current = onDirtyChange;
  });

  // Whether the user changed something not yet saved: reloading or closing the browser asks first.
  const unsaved = useRef(false);
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (!unsaved.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, []);

  const [{ form, cancelDeferred }] = useState(() => {
    const deferred = deferredValidation();
    let dirty = false;
    const created = createForm({
      initialValues: mode === 'add' ? { ...defaultValues(bundle.resource, sessionValues), ...screenValues(bundle.screen), ...prefill } : record,
      readPretty: mode === 'view',
      effects: () => {
        deferred();
        onFieldInputValueChange('*', () => {
          unsaved.current = true;
          if (!dirty) dirtyRef.current?.((dirty = true));
        });
      },
    });
    const markClean = () => {
      dirty = false;
      unsaved.current = false;
      dirtyRef.current?.(false);
    };
    return { form: Object.assign(created, { markClean }), cancelDeferred: deferred.cancel };
  });

  useEffect(
    () => () => {
      cancelDeferred();
      dirtyRef.current?.(false);
    },
    [cancelDeferred],
  );

  const submit = useCallback<SchemaFormController['submit']>(
    async ({ commit, label, validate = '*', confirm: question }) => {
      try {
        setFormStages(form, stagesOfSave(commit));
        await form.validate(validate);
      } catch {
        feedback.message.warning(INVALID_FORM_MESSAGE);
        revealFirstError();
        return null;
      }
      if (question && !(await confirm(feedback, question))) return null;
      form.setSubmitting(true);
      try {
        const values = toRecord(bundle, form.values);
        const source = bundle.screen.kind === 'form' ? bundle.screen.source : undefined;
        if (source) {
          // A form over a `source`: its own fields' values (and the record's id) posted to the save path.
          if (!dataProvider.call) throw new Error('当前数据源不支持该操作');
          const reply = await dataProvider.call(source.save, sourceBody(bundle, values, mode === 'add' ? undefined : record?.id));
          (form as Form & { markClean(): void }).markClean();
          if (source.once) await showOnce(feedback, source.once, bundle.resource, values, reply);
          feedback.message.success(source.done ?? '保存成功');
          void invalidate(bundle.resource.name);
          return { ...values, ...(reply && typeof reply === 'object' ? (reply as RecordData) : {}) };
        }
        const saved = await dataProvider.save(bundle.resource.name, values, { commit });
        (form as Form & { markClean(): void }).markClean();
        feedback.message.success(`${label}成功`);
        void invalidate(bundle.resource.name);
        return saved;
      } catch (error) {
        showRefusal(form, feedback, error);
        return null;
      } finally {
        form.setSubmitting(false);
      }
    },
    [bundle, dataProvider, feedback, form, invalidate, mode, record],
  );

  const isDirty = useCallback(() => unsaved.current, []);
  return { form, submit, isDirty };
}
