/**
 * A form screen: add, edit or view one record. The compiled schema renders through Formily's
 * SchemaField; the action bar saves, commits (save with isCommit), runs the screen's other
 * workflow actions on the record, or goes back.
 */
import { Form as FormilyForm } from '@formily/antd-v5';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { editableAfterSave, isAvailable, resolveActions, type ResolvedAction } from '../actions/actions';
import { useActionContext } from '../actions/useActionContext';
import { useRecordAction } from '../actions/useRecordAction';
import { useEngine } from '../context';
import { useRecord } from '../data/hooks';
import type { RecordData } from '../data/provider';
import { useScreenLinks } from '../navigation';
import type { ScreenComponentProps } from '../screen-props';
import type { ActionRef, Resource } from '../../schema/types';
import { EMPTY_TEXT } from '../render/empty';
import { fillTemplate } from '../open/templates';
import { Frameless, LoadFailed, LoadingBlock, ScreenCard } from '../ui';
import ActionBar from './ActionBar';
import { compileForm, type FormLikeScreen } from './compile';
import { formLayout } from './layout';
import { customFieldComponents, SchemaField } from './components';
import { useSchemaForm } from './useSchemaForm';

export const MODE_TITLES = { add: '新增', edit: '编辑', view: '查看' } as const;

/** Buttons of a form that lists none: save (and commit when the workflow has it), back. */
export function defaultFormActions(resource: Resource): ActionRef[] {
  return resource.workflow?.actions.commit ? ['save', 'commit', 'back'] : ['save', 'back'];
}

/** Loads the record (edit, view), then renders the form over it. */
export function withRecord(Body: (props: ScreenComponentProps & { record?: RecordData }) => React.ReactNode) {
  return function RecordLoader(props: ScreenComponentProps) {
    const { bundle, mode, id } = props;
    const needsRecord = mode !== 'add';
    // A form over a `source` reads the record it edits from the source's `get`.
    const get = bundle.screen.kind === 'form' ? bundle.screen.source?.get : undefined;
    const source = get && id ? `${get}${get.includes('?') ? '&' : '?'}id=${encodeURIComponent(id)}` : undefined;
    const { data, error, isLoading, mutate } = useRecord(bundle.resource.name, needsRecord ? id : null, source);
    if (needsRecord && !id) return <LoadFailed error={new Error('缺少记录编号')} />;
    if (error) return <LoadFailed error={error} onRetry={() => void mutate()} />;
    if (needsRecord && (isLoading || !data)) return <LoadingBlock rows={10} />;
    // A save that stays on the record reloads it: the form starts over from the stored version.
    return <Body key={`${mode}:${id ?? ''}:${String(data?.version ?? '')}`} {...props} record={data} />;
  };
}

/**
 * What a form does once saved or left: `saved` goes where the screen's `afterSave` says (read-only
 * when a commit moved the record out of its editable states); `close` (返回, after a record action)
 * returns to the page the form came from, closing the form when nothing is left unsaved.
 */
export function useFormExit(screen: FormLikeScreen, resource: Resource, isDirty: () => boolean, onClose?: () => void) {
  const links = useScreenLinks();
  const navigate = useNavigate();
  const close = onClose ?? (() => void ((!isDirty() && links.leave()) || links.back()));
  // A form over a `source` may open a route filled from the save's reply (e.g. the new record's page).
  const success = screen.kind === 'form' ? screen.source?.success : undefined;
  const saved = (record: RecordData, committed: boolean) =>
    onClose
      ? onClose()
      : success
        ? void navigate(fillTemplate(success, record), { replace: true })
        : links.afterSave(screen.id, record.id === undefined ? undefined : String(record.id), {
            afterSave: screen.afterSave,
            editable: editableAfterSave(resource, record, committed),
          });
  return { close, saved };
}

/** The buttons the form offers for its mode and record. */
export function useFormActions(screen: FormLikeScreen, resource: Resource, mode: ScreenComponentProps['mode'], record?: RecordData): ResolvedAction[] {
  const context = useActionContext(resource, mode);
  return useMemo(() => {
    const all = resolveActions(resource, screen.actions ?? defaultFormActions(resource), { inForm: true });
    return all.filter((a) => {
      if (mode === 'view' && (a.kind === 'save' || a.kind === 'commit')) return false;
      if (mode !== 'view' && a.kind === 'edit') return false;
      if (mode === 'add' && a.kind === 'record') return false;
      return isAvailable(a, mode === 'add' ? undefined : record, context);
    });
  }, [screen, resource, mode, record, context]);
}

function FormBody({ bundle, mode, id, record, prefill, embedded, onClose, onDirtyChange }: ScreenComponentProps & { record?: RecordData }) {
  const screen = bundle.screen as FormLikeScreen;
  const { resource } = bundle;
  const { roleType, dataProvider } = useEngine();
  const links = useScreenLinks();
  const schema = compileForm(screen, bundle);
  const { form, submit, isDirty } = useSchemaForm({ bundle, mode, record, prefill, onDirtyChange });
  const runner = useRecordAction(resource.name, bundle);
  const actions = useFormActions(screen, resource, mode, record);
  const exit = useFormExit(screen, resource, isDirty, onClose);
  const close = exit.close;
  const [saving, setSaving] = useState<string | null>(null);

  const onAction = async (action: ResolvedAction) => {
    switch (action.kind) {
      case 'back':
        return close();
      case 'save':
      case 'commit':
        setSaving(action.name);
        try {
          const saved = await submit({ commit: action.kind === 'commit', label: action.label, confirm: action.confirm });
          if (saved) exit.saved(saved, action.kind === 'commit');
        } finally {
          setSaving(null);
        }
        return;
      case 'edit':
        return links.open(screen.id, { mode: 'edit', id });
      case 'view':
        return links.open(screen.id, { mode: 'view', id });
      case 'record':
        if (record && (await runner.run(action, [record]))) close();
    }
  };

  const body = (
    <ScreenCard title={`${screen.title}${MODE_TITLES[mode] ? ` · ${MODE_TITLES[mode]}` : ''}`}>
      {/* Empty read-only values read as in details (—), not Formily's N/A. */}
      <FormilyForm form={form} {...formLayout(schema)} previewTextPlaceholder={EMPTY_TEXT}>
        <SchemaField schema={schema} scope={{ $mode: mode, $roleType: roleType, $serverCall: dataProvider.call }} components={customFieldComponents()} />
      </FormilyForm>
      <ActionBar actions={actions} pending={saving ?? runner.pending} onAction={(a) => void onAction(a)} />
      {runner.dialog}
    </ScreenCard>
  );
  // In a host's dialog, without a card of its own (the dialog has the title).
  return embedded ? <Frameless>{body}</Frameless> : body;
}

const FormScreen = withRecord(FormBody);
export default FormScreen;
