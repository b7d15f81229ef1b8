/**
 * The one component the router renders for a schema screen: loads the screen's files, picks the
 * renderer by `kind` (or the registered custom component the screen names) and hands it the mode
 * and record id from props or the URL.
 */
import type { ComponentType } from 'react';
import { useScreenBundle } from './data/hooks';
import DetailScreen from './detail/DetailScreen';
import DocumentScreen from './document/DocumentScreen';
import FormScreen from './form/FormScreen';
import WizardScreen from './form/WizardScreen';
import ListScreen from './list/ListScreen';
import OpenFormScreen from './open/OpenFormScreen';
import { ProofGate } from './open/proof';
import { writableValues } from './model/fields';
import { useOwnSearch, useScreenTarget, valuesOf } from './navigation';
import { useParams } from 'react-router-dom';
import type { ScreenComponentProps } from './screen-props';
import StatsScreen from './stats/StatsScreen';
import type { EditMode, Screen } from '../schema/types';
import { LoadFailed, LoadingBlock } from './ui';

const KIND_RENDERERS: Readonly<Record<Screen['kind'], ComponentType<ScreenComponentProps>>> = {
  list: ListScreen,
  form: FormScreen,
  detail: DetailScreen,
  wizard: WizardScreen,
  stats: StatsScreen,
  document: DocumentScreen,
};

const customScreens: Record<string, ComponentType<ScreenComponentProps>> = {};

/** Registers a custom screen component by the name a screen's `component` uses. */
export function registerScreenComponent(name: string, component: ComponentType<ScreenComponentProps>): void {
  customScreens[name] = component;
}

export interface SchemaScreenProps {
  screenId: string;
  /** Default: `?mode=` of the URL, else edit when there is an id, else add. */
  mode?: EditMode;
  /** Default: the route's `:id`, else `?id=` of the URL. */
  id?: string;
  /**
   * Initial values of a new record given by the host page, over those of the route. Every value is
   * kept in the form, shown or not: an open form posts the ones it does not show too (e.g. a record
   * id or a code the host page already has).
   */
  prefill?: Record<string, unknown>;
  /** Rendered inside a host page, without the screen's page chrome (see ScreenComponentProps). */
  embedded?: boolean;
  onClose?: () => void;
  onDirtyChange?: (dirty: boolean) => void;
}

export default function SchemaScreen({ screenId, mode, id, prefill: given, embedded, onClose, onDirtyChange }: SchemaScreenProps) {
  const { data: bundle, error, mutate } = useScreenBundle(screenId);
  const target = useScreenTarget({ mode, id });
  const params = useParams();
  const [search] = useOwnSearch();
  if (error) return <LoadFailed error={error} onRetry={() => void mutate()} />;
  if (!bundle) return <LoadingBlock />;
  const { screen } = bundle;
  const Renderer =
    (screen.component && customScreens[screen.component]) || (screen.kind === 'form' && screen.submit ? OpenFormScreen : KIND_RENDERERS[screen.kind]);
  if (screen.kind === 'form' && screen.prefill) {
    // The route names what the new record is about (e.g. checkNew/:id): always a new record.
    const prefill = Object.fromEntries(
      Object.entries(screen.prefill).map(([field, param]) => [field, params[param ?? ''] ?? search.get(param ?? '') ?? undefined]),
    );
    return <Renderer bundle={bundle} mode="add" prefill={{ ...prefill, ...given }} embedded={embedded} onClose={onClose} onDirtyChange={onDirtyChange} />;
  }
  const allowed = 'modes' in screen && screen.modes ? screen.modes : undefined;
  if (allowed && !allowed.includes(target.mode)) return <LoadFailed error={new Error('该页面不支持此操作')} />;
  // A new record may start with values from its address (a list's fixed `where`); only the resource's writable fields.
  const preset = target.mode === 'add' ? { ...writableValues(bundle.resource, valuesOf(search)), ...given } : undefined;
  const rendered = (
    <Renderer bundle={bundle} mode={target.mode} id={target.id} prefill={preset} embedded={embedded} onClose={onClose} onDirtyChange={onDirtyChange} />
  );
  // An open screen of whoever proves something: the proof form until the tab keeps a token.
  return 'proof' in screen && screen.proof ? <ProofGate bundle={bundle}>{rendered}</ProofGate> : rendered;
}
