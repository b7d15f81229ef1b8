/**
 * Runs workflow actions on stored records: confirmation, opinion or input dialog first (an action
 * with `input` fields asks for them, with the opinion, in one dialog rendered from `sources`), then
 * the data provider (or the API path of a `call` button), a success toast and a refresh of the resource's cached reads. One action runs
 * at a time per screen; `pending` names it so buttons can disable themselves meanwhile.
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useEngine } from '../context';
import { useInvalidateResource } from '../data/hooks';
import { toEngineError, type RecordData } from '../data/provider';
import ActionInputDialog, { type ActionInputAnswer, type InputSources } from './ActionInputDialog';
import type { ResolvedAction } from './actions';
import { confirm, useFeedback } from './feedback';
import OpinionDialog from './OpinionDialog';

export interface RecordActionRunner {
  /** Resolves true when the action ran on every record. */
  run(action: ResolvedAction, records: readonly RecordData[]): Promise<boolean>;
  /** Name of the running action, or null. */
  pending: string | null;
  /** The opinion / input dialog; render it once in the screen. */
  dialog: ReactNode;
}

interface OpinionRequest {
  action: ResolvedAction;
  resolve: (opinion: string | null) => void;
}

interface InputRequest {
  action: ResolvedAction;
  resolve: (answer: ActionInputAnswer | null) => void;
}

/** `{field}` placeholders of a question filled from the record. */
const fillPlaceholders = (text: string, record: RecordData): string =>
  text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => (record[name] === undefined || record[name] === null ? all : String(record[name])));

/** `sources`: the screen's resource and dictionaries, for actions that ask for fields (`input`). */
export function useRecordAction(resource: string, sources?: InputSources): RecordActionRunner {
  const { dataProvider } = useEngine();
  const feedback = useFeedback();
  const invalidate = useInvalidateResource();
  const [pending, setPending] = useState<string | null>(null);
  const [opinionRequest, setOpinionRequest] = useState<OpinionRequest | null>(null);
  const [inputRequest, setInputRequest] = useState<InputRequest | null>(null);
  const busy = useRef(false);

  const askOpinion = useCallback((action: ResolvedAction) => new Promise<string | null>((resolve) => setOpinionRequest({ action, resolve })), []);
  const askInput = useCallback((action: ResolvedAction) => new Promise<ActionInputAnswer | null>((resolve) => setInputRequest({ action, resolve })), []);

  const run = useCallback(
    async (action: ResolvedAction, records: readonly RecordData[]) => {
      if (busy.current || records.length === 0) return false;
      let opinion: string | undefined;
      let values: Record<string, unknown> = {};
      if (action.input?.length && sources) {
        const answer = await askInput(action);
        if (answer === null) return false;
        ({ values, opinion } = answer);
      } else if (action.opinion) {
        const answer = await askOpinion(action);
        if (answer === null) return false;
        opinion = answer || undefined;
      } else if (action.confirm) {
        const asked = records.length === 1 ? fillPlaceholders(action.confirm, records[0]) : action.confirm;
        const question = records.length > 1 ? `已选择 ${records.length} 条记录，${asked}` : asked;
        if (!(await confirm(feedback, question, action.danger))) return false;
      }
      busy.current = true;
      setPending(action.name);
      try {
        for (const record of records) {
          if (action.kind === 'call') {
            if (!dataProvider.call) throw new Error('当前数据源不支持该操作');
            await dataProvider.call(action.target!, { id: String(record.id) });
          } else await dataProvider.action(resource, action.name, String(record.id), { ...values, opinion, version: record.version ?? undefined });
        }
        feedback.message.success(action.done ?? `${action.label}成功`);
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
    [askInput, askOpinion, dataProvider, feedback, invalidate, resource, sources],
  );

  const close = (opinion: string | null) => {
    opinionRequest?.resolve(opinion);
    setOpinionRequest(null);
  };
  const answerInput = (answer: ActionInputAnswer | null) => {
    inputRequest?.resolve(answer);
    setInputRequest(null);
  };
  const dialog = (
    <>
      {inputRequest && sources ? (
        <ActionInputDialog action={inputRequest.action} sources={sources} onOk={answerInput} onCancel={() => answerInput(null)} />
      ) : null}
      <OpinionDialog
        open={opinionRequest !== null}
        title={opinionRequest?.action.label ?? ''}
        required={opinionRequest?.action.opinion === 'required'}
        onOk={(text) => close(text)}
        onCancel={() => close(null)}
      />
    </>
  );
  return { run, pending, dialog };
}
