/**
 * What the app hands the engine: the data provider, where schemas come from, who the user is
 * (role type for row actions and `$roleType`), and where each screen lives in the router.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { RecordOwner } from './actions/actions';
import type { DataProvider } from './data/provider';
import { bundledRegistry } from './registry/bundled';
import type { SchemaRegistry } from './registry/registry';

export interface EngineSettings {
  dataProvider: DataProvider;
  /** Default: the repository's schemas compiled into the build. */
  registry?: SchemaRegistry;
  /** The current role's type (`roles` of actions, `$roleType` in expressions). */
  roleType?: string;
  /** The route path of a screen (menu.json `screen`); undefined hides links to it. */
  screenPath?: (screenId: string) => string | undefined;
  /**
   * Part of every cache key: change it (e.g. session token + role) to drop cached reads when the
   * user or the role changes.
   */
  cacheScope?: string;
  /** Values a field's `session` names (`unit.orgname`, `user.name` …): a new record's form starts with them. */
  sessionValues?: Readonly<Record<string, unknown>>;
  /** The user's unit and area: records of a scoped resource they do not own offer only the actions their role may run on others' records. */
  owner?: RecordOwner;
  /**
   * Called when the user leaves a form for the page it was opened from (after a save, or 返回 with
   * nothing unsaved): the host closes the form's tab once the other page shows.
   */
  onLeave?: () => void;
  /** Largest attachment file the server accepts, in MB (shown beside the upload button). */
  uploadMaxMb?: number;
}

export interface EngineContextValue extends Required<Omit<EngineSettings, 'roleType' | 'cacheScope' | 'sessionValues' | 'owner' | 'onLeave' | 'uploadMaxMb'>> {
  roleType?: string;
  owner?: RecordOwner;
  onLeave?: () => void;
  uploadMaxMb?: number;
  cacheScope: string;
  sessionValues: Readonly<Record<string, unknown>>;
}

const NO_SESSION_VALUES: Readonly<Record<string, unknown>> = {};

const EngineContext = createContext<EngineContextValue | null>(null);

export function EngineProvider({
  children,
  dataProvider,
  registry = bundledRegistry,
  roleType,
  screenPath,
  cacheScope = '',
  sessionValues = NO_SESSION_VALUES,
  owner,
  onLeave,
  uploadMaxMb,
}: EngineSettings & { children: ReactNode }) {
  const value = useMemo<EngineContextValue>(
    () => ({ dataProvider, registry, roleType, screenPath: screenPath ?? (() => undefined), cacheScope, sessionValues, owner, onLeave, uploadMaxMb }),
    [dataProvider, registry, roleType, screenPath, cacheScope, sessionValues, owner, onLeave, uploadMaxMb],
  );
  return <EngineContext.Provider value={value}>{children}</EngineContext.Provider>;
}

export function useEngine(): EngineContextValue {
  const value = useContext(EngineContext);
  if (!value) throw new Error('engine components must be rendered inside <EngineProvider>');
  return value;
}
