/** SWR hooks over the data provider and the schema registry: screens read data only through these. */
import useSWR, { useSWRConfig, type SWRResponse } from 'swr';
import useSWRImmutable from 'swr/immutable';
import { useCallback, useMemo } from 'react';
import { useEngine } from '../context';
import { loadScreenBundle, type ScreenBundle } from '../registry/registry';
import { EngineError, toEngineError, type FlowLogEntry, type ListQuery, type PageResult, type RecordData } from './provider';

const PREFIX = 'engine';

/** Everything one screen needs (its schema files), loaded once per screen id. */
export function useScreenBundle(screenId: string): SWRResponse<ScreenBundle, Error> {
  const { registry } = useEngine();
  return useSWRImmutable([PREFIX, 'screen', screenId, registry], ([, , id, reg]) => loadScreenBundle(reg, id));
}

/** A page of a resource's records; keeps the previous page on screen while the next loads. */
export function useList(resource: string | undefined, query: ListQuery): SWRResponse<PageResult, EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  const key = resource ? [PREFIX, 'list', cacheScope, resource, JSON.stringify(query)] : null;
  return useSWR(key, () => dataProvider.getList(resource!, query).catch((e) => Promise.reject(toEngineError(e))), { keepPreviousData: true });
}

/** One record (null id: nothing to load, e.g. add mode). */
export function useRecord(resource: string, id: string | null | undefined): SWRResponse<RecordData, EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  return useSWR(id ? [PREFIX, 'record', cacheScope, resource, id] : null, () => dataProvider.getOne(resource, id!).catch((e) => Promise.reject(toEngineError(e))), {
    revalidateOnFocus: false,
  });
}

export function useFlowLog(resource: string, id: string | null | undefined, enabled = true): SWRResponse<FlowLogEntry[], EngineError> {
  const { dataProvider, cacheScope } = useEngine();
  return useSWR(enabled && id ? [PREFIX, 'flowLog', cacheScope, resource, id] : null, () => dataProvider.flowLog(resource, id!).catch((e) => Promise.reject(toEngineError(e))));
}

/** Drops every cached read of a resource (lists, records, logs) after a write. */
export function useInvalidateResource(): (resource: string) => Promise<unknown> {
  const { mutate } = useSWRConfig();
  return useCallback(
    (resource: string) => mutate((key) => Array.isArray(key) && key[0] === PREFIX && key[1] !== 'screen' && key[1] !== 'ref' && key[3] === resource),
    [mutate],
  );
}

const REF_PAGE_SIZE = 100;

/** Options of a reference field: records of the referenced resource, labelled by its first text field. */
export function useRefOptions(resource: string): { options: { value: string; label: string }[]; isLoading: boolean } {
  const { dataProvider, registry, cacheScope } = useEngine();
  const { data, isLoading } = useSWRImmutable([PREFIX, 'ref', cacheScope, resource], async () => {
    const schema = await registry.resource(resource);
    const labelField = Object.entries(schema.fields).find(([, f]) => f?.type === 'string')?.[0] ?? 'id';
    const page = await dataProvider.getList(resource, { pageNo: 1, pageSize: REF_PAGE_SIZE });
    return page.list.map((row) => ({ value: String(row.id), label: String(row[labelField] ?? row.id) }));
  });
  return useMemo(() => ({ options: data ?? [], isLoading }), [data, isLoading]);
}
