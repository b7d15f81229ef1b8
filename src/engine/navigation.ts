/**
 * Routing for the engine. It uses react-router-dom's hooks directly: the app's router is
 * react-router 7, the URL is where filters, paging, mode and id live (so back-navigation and
 * bookmarks restore them), and wrapping that router in a second abstraction would only duplicate
 * it. What the engine cannot know, where each screen is routed, comes from
 * `EngineProvider.screenPath`.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { useEngine } from './context';
import type { EditMode } from '../schema/types';

export interface ScreenTarget {
  mode?: EditMode;
  id?: string;
  /** Initial values of a new record (`v.<field>=<value>` in the address), e.g. a list's fixed `where`. */
  values?: Readonly<Record<string, string>>;
}

/** Prefix of the query parameters that carry a new record's initial values. */
const VALUE_PREFIX = 'v.';

/** The initial values a new record's address carries (see ScreenTarget.values). */
export function valuesOf(search: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of search) if (key.startsWith(VALUE_PREFIX) && key.length > VALUE_PREFIX.length) values[key.slice(VALUE_PREFIX.length)] = value;
  return values;
}

/** Address of a screen with its mode and record id as query parameters. */
export function screenHref(path: string, { mode, id, values }: ScreenTarget = {}): string {
  const search = new URLSearchParams();
  if (mode) search.set('mode', mode);
  for (const [field, value] of Object.entries(values ?? {})) search.set(`${VALUE_PREFIX}${field}`, value);
  // A route with `:id` takes the id in its path (checkNew/:id), others as ?id=.
  if (id && path.includes(':id')) path = path.replace(':id', encodeURIComponent(id));
  else if (id) search.set('id', id);
  const query = search.toString();
  return query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
}

/** Whether the app's history has a page before this one (react-router keeps its index in history.state). */
const canGoBack = () => ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;

/** Where a form lands after a successful save: its `afterSave` and whether the saved record is still editable. */
export interface SaveLanding {
  afterSave?: 'back' | 'record';
  /** The saved record can still be saved again (its workflow state allows it); false: show it read-only. */
  editable: boolean;
}

export function useScreenLinks() {
  const { screenPath, onLeave } = useEngine();
  const navigate = useNavigate();
  const hrefOf = useCallback(
    (screenId: string | undefined, target?: ScreenTarget) => {
      const path = screenId ? screenPath(screenId) : undefined;
      return path ? screenHref(path, target) : undefined;
    },
    [screenPath],
  );
  const open = useCallback(
    (screenId: string | undefined, target?: ScreenTarget) => {
      const href = hrefOf(screenId, target);
      if (href) void navigate(href);
    },
    [hrefOf, navigate],
  );
  /** Back in history when there is somewhere to go back to, else to `fallback` (or stay). */
  const back = useCallback(
    (fallback?: string) => {
      if (canGoBack()) void navigate(-1);
      else if (fallback) void navigate(fallback, { replace: true });
    },
    [navigate],
  );
  /** Back to the page the form was opened from, and the host closes the form's tab; false when there is none. */
  const leave = useCallback(() => {
    if (!canGoBack()) return false;
    onLeave?.();
    void navigate(-1);
    return true;
  }, [navigate, onLeave]);
  /**
   * After a form saved: `afterSave` "back" (default) returns where the user came from and closes
   * the form. Staying ("record", or a form opened without history: a typed or bookmarked address, a
   * reload), the form shows the saved record (the URL too): in edit mode while it is editable, so
   * the next 保存 updates that record instead of adding another; read-only once a commit moved it on.
   */
  const afterSave = useCallback(
    (screenId: string, savedId: string | undefined, landing: SaveLanding) => {
      if (landing.afterSave !== 'record' && leave()) return;
      const href = savedId ? hrefOf(screenId, { mode: landing.editable ? 'edit' : 'view', id: savedId }) : undefined;
      if (href) void navigate(href, { replace: true });
    },
    [hrefOf, leave, navigate],
  );
  return { hrefOf, open, back, leave, afterSave };
}

/**
 * The search parameters of the route this component was mounted on. A keep-alive tab stays
 * mounted while another route shows; it then keeps the parameters it last saw instead of reading
 * the other route's.
 */
export function useOwnSearch(): [URLSearchParams, (next: URLSearchParams) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const ownPath = useRef(location.pathname);
  const active = location.pathname === ownPath.current;
  const last = useRef(location.search);
  useEffect(() => {
    if (active) last.current = location.search;
  }, [active, location.search]);
  const search = active ? location.search : last.current;
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: URLSearchParams) => {
      const query = next.toString();
      void navigate({ pathname: ownPath.current, search: query ? `?${query}` : '' }, { replace: true });
    },
    [navigate],
  );
  return [params, setParams];
}

const MODES: readonly string[] = ['add', 'edit', 'view'];

/** Mode and record id: from props, else the route (`:id`) and the query (`?mode=&id=`). */
export function useScreenTarget(props: ScreenTarget): { mode: EditMode; id?: string } {
  const [search] = useOwnSearch();
  const params = useParams();
  const id = props.id ?? params.id ?? search.get('id') ?? undefined;
  const queryMode = search.get('mode');
  const mode = props.mode ?? (queryMode && MODES.includes(queryMode) ? (queryMode as EditMode) : id ? 'edit' : 'add');
  return { mode, id };
}
