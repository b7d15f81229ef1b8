/** SWR hooks over the data provider and the schema registry: screens read data only through these. */
import useSWR, { useSWRConfig, type SWRResponse } from 'swr';
import useSWRImmutable from 'swr/immutable';
import { useCallback, useMemo } from 'react';
import { useFeedback } from '../actions/feedback';
import { useEngine } from '../context';
import { loadScreenBundle, type ScreenBundle } from '../registry/registry';
import type { Resource } from '../../schema/types';
import { LABEL_SEPARATOR, labelFieldsOf } from '../../schema/model';
import { EngineError, toEngineError, type AuditEntry, type DataProvider, type FlowLogEntry, type ListQuery, type PageResult, type PrintedDocument, type RecordData, type StatsQuery, type StatsResult } from './provider';

const PREFIX = 'engine';

/** Everything one screen needs (its schema files), loaded once per screen id. */
export function useScreenBundle(screenId: string): SWRResponse<ScreenBundle, Error> {
  const { registry } = useEngine();
  return useSWRImmutable([PREFIX, 'screen', screenId, registry], ([, , id, reg]) => loadScreenBundle(reg, id));
}

/**
 * A list or record that fails to load says so in a toast as well as on the screen (which offers a
 * retry): once per failed request, as SWR calls `onError` only for the request it started, not per
 * render. The toast's key is its text, so the same message shown meanwhile by the transport (a
 * session that ended) is one toast, not two.
 */
function useLoadFailureToast(): (error: EngineError) => void {
  const { message } = useFeedback();
  return useCallback((error: EngineError) => void message.error({ content: error.message, key: error.message }), [message]);
}

/** A page of a resource's records; keeps the previous page on screen while the next loads. */
export function useList(resource: string | undefined, query: ListQuery, source?: string, { quiet = false } = {}): SWRResponse<PageResult, EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  const toast = useLoadFailureToast();
  // SWR calls its `onError` option unguarded: a quiet read leaves the option out rather than undefined.
  const onError = quiet ? {} : { onError: toast };
  const key = resource ? [PREFIX, 'list', cacheScope, resource, JSON.stringify(query), source ?? ''] : null;
  const read = () => {
    if (source === undefined) return dataProvider.getList(resource!, query);
    if (!dataProvider.getListAt) return Promise.reject(new EngineError('当前数据源不支持该列表'));
    return dataProvider.getListAt(source, query);
  };
  return useSWR(key, () => read().catch((e) => Promise.reject(toEngineError(e))), { keepPreviousData: true, ...onError });
}

/** Counts of a resource's rows (null query: nothing to load); keeps the previous counts on screen while new filters load. */
export function useStats(resource: string, query: StatsQuery | null): SWRResponse<StatsResult, EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  const key = query ? [PREFIX, 'stats', cacheScope, resource, JSON.stringify(query)] : null;
  const read = async () => {
    if (!dataProvider.stats) throw new EngineError('当前数据源不支持统计');
    return dataProvider.stats(resource, query!).catch((e) => Promise.reject(toEngineError(e)));
  };
  return useSWR(key, read, { keepPreviousData: true });
}

/**
 * One record (null id: nothing to load, e.g. add mode); `source`: read by GET of that API path
 * (its query complete) instead of the resource route; `quiet`: no toast when it fails.
 */
export function useRecord(resource: string, id: string | null | undefined, source?: string, { quiet = false } = {}): SWRResponse<RecordData, EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  const toast = useLoadFailureToast();
  const read = () => {
    if (source === undefined) return dataProvider.getOne(resource, id!);
    if (!dataProvider.getAt) return Promise.reject(new EngineError('当前数据源不支持该记录'));
    return dataProvider.getAt(source);
  };
  return useSWR(id ? [PREFIX, 'record', cacheScope, resource, id, source ?? ''] : null, () => read().catch((e) => Promise.reject(toEngineError(e))), {
    revalidateOnFocus: false,
    ...(quiet ? {} : { onError: toast }),
  });
}

/** A record as its printed document with its verification token (document screens). */
export function useDocument(resource: string, id: string | null | undefined): SWRResponse<PrintedDocument, EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  return useSWR(id ? [PREFIX, 'document', cacheScope, resource, id] : null, () => {
    if (!dataProvider.document) return Promise.reject(new EngineError('当前环境不支持打印文书'));
    return dataProvider.document(resource, id!).catch((e) => Promise.reject(toEngineError(e)));
  }, { revalidateOnFocus: false });
}

export function useFlowLog(resource: string, id: string | null | undefined, enabled = true): SWRResponse<FlowLogEntry[], EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  return useSWR(enabled && id ? [PREFIX, 'flowLog', cacheScope, resource, id] : null, () => dataProvider.flowLog(resource, id!).catch((e) => Promise.reject(toEngineError(e))));
}

/** The audit log of a record (only fetched when `enabled`: the detail loads it when opened). */
export function useAuditLog(resource: string, id: string | null | undefined, enabled: boolean): SWRResponse<AuditEntry[], EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  const load = dataProvider.auditLog;
  return useSWR(enabled && id && load ? [PREFIX, 'auditLog', cacheScope, resource, id] : null, () => load!(resource, id!).catch((e) => Promise.reject(toEngineError(e))));
}

/** Drops every cached read of a resource (lists, records, logs) after a write. */
export function useInvalidateResource(): (resource: string) => Promise<unknown> {
  const { mutate } = useSWRConfig();
  return useCallback(
    (resource: string) => mutate((key) => Array.isArray(key) && key[0] === PREFIX && key[1] !== 'screen' && key[1] !== 'ref' && key[3] === resource),
    [mutate],
  );
}

const REF_PAGE_SIZE = 20;

export interface RefOption {
  value: string;
  label: string;
}

/** How a resource names its records where others refer to them (src/schema/model.ts labelFieldsOf). */
export function refLabelOf(resource: Pick<Resource, 'display' | 'fields'>): (row: RecordData) => string {
  const fields = labelFieldsOf(resource);
  return (row) => fields.map((name) => row[name]).filter((v) => v !== undefined && v !== null && v !== '').join(LABEL_SEPARATOR) || String(row.id);
}

/**
 * Records of `resource` to choose from: the first page, or those whose `search` fields contain
 * `text` (server-side `q`), limited by `where`; keeps the previous options while typing.
 */
export function useRefOptions(resource: string, text = '', where?: Record<string, unknown>, enabled = true): { options: RefOption[]; isLoading: boolean } {
  const { dataProvider, registry, cacheScope } = useEngine();
  const q = text.trim();
  const { data, isLoading } = useSWR(
    enabled ? [PREFIX, 'ref', cacheScope, resource, q, JSON.stringify(where ?? {})] : null,
    async () => {
      const schema = await registry.resource(resource);
      const label = refLabelOf(schema);
      const filters = { ...(where ?? {}), ...(q && schema.search?.length ? { q } : {}) };
      const page = await dataProvider.getList(resource, { pageNo: 1, pageSize: REF_PAGE_SIZE, filters });
      return page.list.map((row) => ({ value: String(row.id), label: label(row) }));
    },
    { keepPreviousData: true, revalidateOnFocus: false },
  );
  return useMemo(() => ({ options: data ?? [], isLoading }), [data, isLoading]);
}

interface Waiter {
  resolve: (label: string | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Labels of referenced records, fetched in batches: every id asked for in the same tick (a page's
 * cells, a detail's fields) travels in one list request per resource (`id` takes a list).
 * Resolves to null for a record the user cannot read (deleted, or out of scope).
 */
class RefLabelLoader {
  /** Resource → id → who waits for its label. */
  private pending = new Map<string, Map<string, Waiter[]>>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly dataProvider: DataProvider,
    private readonly registry: ReturnType<typeof useEngine>['registry'],
  ) {}

  load(resource: string, id: string): Promise<string | null> {
    return new Promise((resolve, reject) => {
      const ids = this.pending.get(resource) ?? new Map<string, Waiter[]>();
      this.pending.set(resource, ids);
      ids.set(id, [...(ids.get(id) ?? []), { resolve, reject }]);
      this.timer ??= setTimeout(() => this.flush(), 0);
    });
  }

  private flush(): void {
    this.timer = undefined;
    const pending = this.pending;
    this.pending = new Map();
    for (const [resource, ids] of pending) {
      const all = [...ids.keys()];
      const batches = Array.from({ length: Math.ceil(all.length / REF_LABEL_BATCH) }, (_, i) => all.slice(i * REF_LABEL_BATCH, (i + 1) * REF_LABEL_BATCH));
      Promise.all([
        this.registry.resource(resource),
        ...batches.map((batch) => this.dataProvider.getList(resource, { pageNo: 1, pageSize: batch.length, filters: { id: batch } })),
      ]).then(
        ([schema, ...pages]) => {
          const label = refLabelOf(schema);
          const rows = new Map(pages.flatMap((page) => page.list.map((row) => [String(row.id), label(row)] as const)));
          for (const [id, waiters] of ids) for (const { resolve } of waiters) resolve(rows.get(id) ?? null);
        },
        (error) => {
          for (const waiters of ids.values()) for (const { reject } of waiters) reject(toEngineError(error));
        },
      );
    }
  }
}

/** The list API's page size cap: ids asked in one request. */
const REF_LABEL_BATCH = 100;
const loaders = new WeakMap<DataProvider, RefLabelLoader>();

/**
 * The label of one referenced record: undefined while loading, null when the user cannot read it.
 * Many at once (a list's column) cost one request per resource.
 */
export function useRefLabel(resource: string, id: string | undefined): string | null | undefined {
  const { dataProvider, registry, cacheScope } = useEngine();
  const { data } = useSWRImmutable(id ? [PREFIX, 'ref-label', cacheScope, resource, id] : null, () => {
    let loader = loaders.get(dataProvider);
    if (!loader) loaders.set(dataProvider, (loader = new RefLabelLoader(dataProvider, registry)));
    return loader.load(resource, id!);
  });
  return data;
}
