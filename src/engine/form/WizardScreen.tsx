/**
 * A wizard: the form compiler's output for ordered steps, shown one step at a time under antd
 * Steps. 下一步 validates the current step only; the final save / commit validates everything and
 * jumps to the first step with an error.
 */
import { Form as FormilyForm } from '@formily/antd-v5';
import { Button, Space, Steps } from 'antd';
import { useState } from 'react';
import type { ResolvedAction } from '../actions/actions';
import { useRecordAction } from '../actions/useRecordAction';
import { useEngine } from '../context';
import type { RecordData } from '../data/provider';
import { useScreenLinks } from '../navigation';
import type { WizardScreen as WizardScreenSchema } from '../../schema/types';
import type { ScreenComponentProps } from '../screen-props';
import { ScreenCard } from '../ui';
import ActionBar from './ActionBar';
import { compileForm, stepKey } from './compile';
import { customFieldComponents, SchemaField } from './components';
import { MODE_TITLES, useFormActions, useFormExit, withRecord } from './FormScreen';
import { formLayout } from './layout';
import { INVALID_FORM_MESSAGE, useSchemaForm } from './useSchemaForm';
import { WizardStepContext } from './wizard';
import { useFeedback } from '../actions/feedback';

function WizardBody({ bundle, mode, id, record, onClose, onDirtyChange }: ScreenComponentProps & { record?: RecordData }) {
  const screen = bundle.screen as WizardScreenSchema;
  const { roleType, dataProvider } = useEngine();
  const links = useScreenLinks();
  const feedback = useFeedback();
  const schema = compileForm(screen, bundle);
  const { form, submit, isDirty } = useSchemaForm({ bundle, mode, record, onDirtyChange });
  const runner = useRecordAction(bundle.resource.name, bundle);
  const actions = useFormActions(screen, bundle.resource, mode, record);
  const [current, setCurrent] = useState(0);
  const [saving, setSaving] = useState<string | null>(null);
  const last = screen.steps.length - 1;
  const exit = useFormExit(screen, bundle.resource, isDirty, onClose);
  const close = exit.close;

  const validateStep = async (index: number) => {
    try {
      await form.validate(`${stepKey(index)}.**`);
      return true;
    } catch {
      return false;
    }
  };

  const next = async () => {
    if (mode === 'view' || (await validateStep(current))) setCurrent(current + 1);
    else feedback.message.warning(INVALID_FORM_MESSAGE);
  };

  const onAction = async (action: ResolvedAction) => {
    if (action.kind === 'back') return close();
    if (action.kind === 'edit') return links.open(screen.id, { mode: 'edit', id });
    if (action.kind === 'record') {
      if (record && (await runner.run(action, [record]))) close();
      return;
    }
    if (action.kind !== 'save' && action.kind !== 'commit') return;
    for (let i = 0; i < last; i++) {
      if (!(await validateStep(i))) {
        setCurrent(i);
        feedback.message.warning(INVALID_FORM_MESSAGE);
        return;
      }
    }
    setSaving(action.name);
    try {
      const saved = await submit({ commit: action.kind === 'commit', label: action.label, confirm: action.confirm });
      if (saved) exit.saved(saved, action.kind === 'commit');
    } finally {
      setSaving(null);
    }
  };

  // Submitting actions belong to the last step; back and record actions are always offered.
  const offered = actions.filter((a) => current === last || (a.kind !== 'save' && a.kind !== 'commit'));

  return (
    <ScreenCard title={`${screen.title}${MODE_TITLES[mode] ? ` · ${MODE_TITLES[mode]}` : ''}`}>
      <Steps
        current={current}
        items={screen.steps.map((s) => ({ title: s.title }))}
        style={{ marginBottom: 24 }}
        onChange={mode === 'view' ? setCurrent : undefined}
      />
      <WizardStepContext.Provider value={current}>
        <FormilyForm form={form} {...formLayout(schema)}>
          <SchemaField schema={schema} scope={{ $mode: mode, $roleType: roleType, $serverCall: dataProvider.call }} components={customFieldComponents()} />
        </FormilyForm>
      </WizardStepContext.Provider>
      <Space style={{ display: 'flex', justifyContent: 'center', marginTop: 24 }}>
        {current > 0 && <Button onClick={() => setCurrent(current - 1)}>上一步</Button>}
        {current < last && (
          <Button type="primary" onClick={() => void next()}>
            下一步
          </Button>
        )}
      </Space>
      <ActionBar actions={offered} pending={saving ?? runner.pending} onAction={(a) => void onAction(a)} />
      {runner.dialog}
    </ScreenCard>
  );
}

const WizardScreen = withRecord(WizardBody);
export default WizardScreen;
