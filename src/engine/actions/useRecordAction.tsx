/**
 * Runs workflow actions on stored records: confirmation or opinion dialog first, then the data
 * provider, a success toast and a refresh of the resource's cached reads. One action runs at a
 * time per screen; `pending` names it so buttons can disable themselves meanwhile.
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useEngine } from '../context';
import { useInvalidateResource } from '../data/hooks';
import { toEngineError, type RecordData } from '../data/provider';
import type { ResolvedAction } from './actions';
import { confirm, useFeedback } from './feedback';
import OpinionDialog from './OpinionDialog';

export interface RecordActionRunner {
  /** Resolves true when the action ran on every record. */
  run(action: ResolvedAction, records: readonly RecordData[]): Promise<boolean>;
  /** Name of the running action, or null. */
  pending: string | null;
  /** The opinion dialog; render it once in the screen. */
  dialog: ReactNode;
}

interface OpinionRequest {
  action: ResolvedAction;
  resolve: (opinion: string | null) => void;
}

export function useRecordAction(resource: string): RecordActionRunner {
  const { dataProvider } = useEngine();
  const feedback = useFeedback();
  const invalidate = useInvalidateResource();
  const [pending, setPending] = useState<string | null>(null);
  const [opinionRequest, setOpinionRequest] = useState<OpinionRequest | null>(null);
  const busy = useRef(false);

  const askOpinion = useCallback((action: ResolvedAction) => new Promise<string | null>((resolve) => setOpinionRequest({ action, resolve })), []);

  const run = useCallback(
    async (action: ResolvedAction, records: readonly RecordData[]) => {
      if (busy.current || records.length === 0) return false;
      let opinion: string | undefined;
      if (action.opinion) {
        const answer = await askOpinion(action);
        if (answer === null) return false;
        opinion = answer || undefined;
      } else if (action.confirm) {
        const question = records.length > 1 ? `已选择 ${records.length} 条记录，${action.confirm}` : action.confirm;
        if (!(await confirm(feedback, question, action.danger))) return false;
      }
      busy.current = true;
      setPending(action.name);
      try {
        for (const record of records) await dataProvider.action(resource, action.name, String(record.id), { opinion, version: record.version ?? undefined });
        feedback.message.success(`${action.label}成功`);
        return true;
      } catch (error) {
        feedback.message.error(toEngineError(error).message);
        return false;
      } finally {
        busy.current = false;
        setPending(null);
        void invalidate(resource);
      }
    },
    [askOpinion, dataProvider, feedback, invalidate, resource],
  );

  const close = (opinion: string | null) => {
    opinionRequest?.resolve(opinion);
    setOpinionRequest(null);
  };
  const dialog = (
    <OpinionDialog
      open={opinionRequest !== null}
      title={opinionRequest?.action.label ?? ''}
      required={opinionRequest?.action.opinion === 'required'}
      onOk={(text) => close(text)}
      onCancel={() => close(null)}
    />
  );
  return { run, pending, dialog };
}
