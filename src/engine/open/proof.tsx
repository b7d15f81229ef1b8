/**
 * A screen's `proof`: an open screen (no session) whose data belongs to whoever proves something,
 * e.g. a mobile by its SMS code. Until the proof holds, the screen's card holds the proof form: its
 * values are posted to `path`. Either the reply carries a token, kept for the browser tab
 * (sessionStorage `keep`, which an open form's `submit.keep` may have filled): the screen reads its
 * `source` with the token as the query parameter `param` (useProof, sourcePath), and a refused read
 * forgets the reply and brings the form back with the server's message. Or the reply holds the
 * record itself (`record`, with its workflow log `flowLog`): a detail screen shows it, and nothing
 * is kept.
 */
import { Alert, Button, Space, Typography } from 'antd';
import { createContext, Fragment, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useEngine } from '../context';
import type { ScreenBundle } from '../registry/registry';
import type { FlowLogEntry, RecordData } from '../data/provider';
import type { FormScreen, Proof } from '../../schema/types';
import { ownProof, screenResource } from '../../schema/screen-fields';
import { OpenPage } from '../ui';
import { OpenFormBody, WIDE } from './OpenFormScreen';

/** A workflow log entry as a proof's reply may give it (who acted is not told to a visitor). */
export type ProvedLogEntry = Pick<FlowLogEntry, 'action' | 'toState' | 'createDate'> & Partial<Pick<FlowLogEntry, 'id' | 'fromState' | 'opinion' | 'userName'>>;

export interface ProofState {
  /** A token reply: the query parameter the token is sent as, and the token. */
  param?: string;
  token?: string;
  /** A record reply: the record, its workflow log, and the values the proof form posted. */
  record?: RecordData;
  flowLog?: readonly ProvedLogEntry[];
  values: Readonly<Record<string, unknown>>;
  /** The error codes that mean the token no longer holds (undefined: every refusal). */
  expired?: readonly string[];
  /** A read was refused: forget the proof and ask for it again, showing `message`. */
  refused(message: string): void;
}

const ProofContext = createContext<ProofState | undefined>(undefined);

/** The proof of the screen being rendered (undefined: the screen has none). */
export const useProof = (): ProofState | undefined => useContext(ProofContext);

/**
 * A read under `proof` refused because the token no longer holds (any refusal, unless the proof
 * names the `expired` codes) forgets the proof and asks for it again with the server's message;
 * another refusal (a record that is not the prover's) is shown by the screen like any failed read.
 */
export function useRefusal(proof: ProofState | undefined, error: (Error & { code?: string }) | undefined): void {
  useEffect(() => {
    if (proof && error && (!proof.expired || (error.code !== undefined && proof.expired.includes(error.code)))) proof.refused(error.message);
  }, [proof, error]);
}

/** `path` with the query parameters `params` and the proof's token. */
export function sourcePath(path: string, params: Record<string, string>, proof: ProofState | undefined): string {
  const search = new URLSearchParams(params);
  if (proof?.param && proof.token) search.set(proof.param, proof.token);
  const query = search.toString();
  return query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
}

type Kept = Record<string, unknown>;

/** The value a reply holds: a record reply's record, else the token (undefined: the reply proves nothing). */
function proved(spec: Proof, reply: Kept | null): unknown {
  if (!reply) return undefined;
  if (spec.record) {
    const record = reply[spec.record];
    return record && typeof record === 'object' ? record : undefined;
  }
  const token = spec.token ? reply[spec.token] : undefined;
  return typeof token === 'string' && token ? token : undefined;
}

function loadKept(spec: Proof): Kept | null {
  if (spec.record || !spec.keep) return null; // a record is never kept
  try {
    const value = JSON.parse(sessionStorage.getItem(spec.keep) ?? 'null') as unknown;
    return value && typeof value === 'object' && proved(spec, value as Kept) !== undefined ? (value as Kept) : null;
  } catch {
    return null;
  }
}

/** The proof form as an open form screen of the proof's own fields (an `sms` item sends its code). */
function proofBundle(id: string, title: string, spec: Proof): ScreenBundle {
  const screen: FormScreen = { id: `${id}-proof`, kind: 'form', title, fields: spec.fields, sections: [{ columns: 1, fields: spec.items }] };
  return { screen, resource: screenResource(screen, undefined), resources: new Map(), dicts: new Map() };
}

/** The open page of a screen with a proof: the proof form until the tab keeps a token, then the screen (`children`). */
export function ProofGate({ bundle, children }: { bundle: ScreenBundle; children: ReactNode }) {
  const { screen } = bundle;
  const spec = ownProof(screen)!;
  const { dataProvider } = useEngine();
  const navigate = useNavigate();
  const [kept, setKept] = useState(() => loadKept(spec));
  const [values, setValues] = useState<Readonly<Record<string, unknown>>>({});
  // Each proof renders the screen afresh (a new query's record starts a new embedded form).
  const [generation, setGeneration] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useMemo(() => proofBundle(screen.id, screen.title, spec), [screen, spec]);
  const drop = useCallback(() => {
    if (spec.keep) sessionStorage.removeItem(spec.keep);
    setKept(null);
  }, [spec]);
  const state = useMemo<ProofState | undefined>(
    () =>
      kept
        ? {
            ...(spec.record
              ? { record: kept[spec.record] as RecordData, flowLog: spec.flowLog ? ((kept[spec.flowLog] ?? []) as ProvedLogEntry[]) : undefined }
              : { param: spec.param, token: String(proved(spec, kept)) }),
            values,
            expired: spec.expired,
            refused: (message) => {
              drop();
              setRefusal(message);
            },
          }
        : undefined,
    [kept, spec, values, drop],
  );
  const forget = () => {
    drop();
    setRefusal(null);
  };
  const post = async (values: Record<string, unknown>) => {
    if (!dataProvider.call) throw new Error('当前页面不能提交');
    const reply = (await dataProvider.call(spec.path, values)) as Kept | null;
    if (proved(spec, reply) === undefined) throw new Error('验证失败，请重试');
    if (spec.keep && !spec.record) sessionStorage.setItem(spec.keep, JSON.stringify(reply));
    setRefusal(null);
    setValues(values);
    setGeneration((n) => n + 1);
    setKept(reply);
  };
  const links = spec.links?.length ? (
    <Space wrap>
      {spec.links.map((l) => (
        <Button key={l.route} type={l.primary ? 'primary' : 'default'} onClick={() => void navigate(l.route)}>
          {l.label}
        </Button>
      ))}
    </Space>
  ) : undefined;
  return (
    <OpenPage title={screen.title} extra={links} width={WIDE}>
      {state ? (
        <>
          {spec.show ? (
            <Typography.Paragraph className="engine-proof-shown">
              {spec.show.label}：{String((state.record ?? kept)?.[spec.show.field] ?? '')}{' '}
              <Typography.Link onClick={forget}>{spec.show.change ?? '重新验证'}</Typography.Link>
            </Typography.Paragraph>
          ) : null}
          <ProofContext.Provider value={state}>
            <Fragment key={generation}>{children}</Fragment>
          </ProofContext.Provider>
        </>
      ) : (
        <div className="engine-proof-form">
          {refusal ? <Alert type="warning" showIcon role="alert" style={{ marginBottom: 16 }} message={refusal} /> : null}
          {spec.intro ? <Typography.Paragraph type="secondary">{spec.intro}</Typography.Paragraph> : null}
          <OpenFormBody bundle={form} label={spec.label ?? '验证'} post={post} />
        </div>
      )}
    </OpenPage>
  );
}
