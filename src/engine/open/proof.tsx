/**
 * A screen's `proof`: an open screen (no session) whose data belongs to whoever proves something,
 * e.g. a mobile by its SMS code. Until the browser tab keeps a token (sessionStorage `keep`, which
 * an open form's `submit.keep` may have filled), the screen's card holds the proof form: its
 * values are posted to `path` and the reply is kept. Then the screen reads its `source` with the
 * token as the query parameter `param` (useProof, sourcePath); a refused read forgets the reply
 * and brings the form back with the server's message.
 */
import { Alert, Button, Space, Typography } from 'antd';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useEngine } from '../context';
import type { ScreenBundle } from '../registry/registry';
import type { FormScreen, Proof } from '../../schema/types';
import { screenResource } from '../../schema/screen-fields';
import { OpenPage } from '../ui';
import { OpenFormBody, WIDE } from './OpenFormScreen';

export interface ProofState {
  /** The query parameter the token is sent as, and the token. */
  param: string;
  token: string;
  /** A read was refused: forget the proof and ask for it again, showing `message`. */
  refused(message: string): void;
}

const ProofContext = createContext<ProofState | undefined>(undefined);

/** The proof of the screen being rendered (undefined: the screen has none). */
export const useProof = (): ProofState | undefined => useContext(ProofContext);

/** A read under `proof` that failed forgets the proof and asks for it again with the server's message. */
export function useRefusal(proof: ProofState | undefined, error: Error | undefined): void {
  useEffect(() => {
    if (proof && error) proof.refused(error.message);
  }, [proof, error]);
}

/** `path` with the query parameters `params` and the proof's token. */
export function sourcePath(path: string, params: Record<string, string>, proof: ProofState | undefined): string {
  const search = new URLSearchParams(params);
  if (proof) search.set(proof.param, proof.token);
  const query = search.toString();
  return query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
}

type Kept = Record<string, unknown>;

function loadKept(spec: Proof): Kept | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(spec.keep) ?? 'null') as unknown;
    return value && typeof value === 'object' && typeof (value as Kept)[spec.token] === 'string' && (value as Kept)[spec.token] ? (value as Kept) : null;
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
  const spec = (screen as { proof?: Proof }).proof!;
  const { dataProvider } = useEngine();
  const navigate = useNavigate();
  const [kept, setKept] = useState(() => loadKept(spec));
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useMemo(() => proofBundle(screen.id, screen.title, spec), [screen, spec]);
  const state = useMemo<ProofState | undefined>(
    () =>
      kept
        ? {
            param: spec.param,
            token: String(kept[spec.token]),
            refused: (message) => {
              sessionStorage.removeItem(spec.keep);
              setKept(null);
              setRefusal(message);
            },
          }
        : undefined,
    [kept, spec],
  );
  const forget = () => {
    sessionStorage.removeItem(spec.keep);
    setRefusal(null);
    setKept(null);
  };
  const post = async (values: Record<string, unknown>) => {
    if (!dataProvider.call) throw new Error('当前页面不能提交');
    const reply = (await dataProvider.call(spec.path, values)) as Kept | null;
    if (!reply || typeof reply[spec.token] !== 'string') throw new Error('验证失败，请重试');
    sessionStorage.setItem(spec.keep, JSON.stringify(reply));
    setRefusal(null);
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
              {spec.show.label}：{String(kept?.[spec.show.field] ?? '')} <Typography.Link onClick={forget}>{spec.show.change ?? '重新验证'}</Typography.Link>
            </Typography.Paragraph>
          ) : null}
          <ProofContext.Provider value={state}>{children}</ProofContext.Provider>
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
