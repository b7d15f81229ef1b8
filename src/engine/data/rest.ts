/**
 * The data provider over the server's generic resource routes (relative to the API base):
 *
 *   POST /r/<resource>/list          body: pageNo, pageSize, orderBy ("a desc,b"), filter params
 *   GET  /r/<resource>/get/<id>
 *   POST /r/<resource>/save          body: the record, isCommit
 *   POST /r/<resource>/<action>/<id> body: opinion, version
 *   GET  /r/<resource>/flowLog/<id>
 *   GET  /r/<resource>/auditLog/<id>
 *   GET  /r/<resource>/document/<id>   { record, token } of a record that prints (resource `document`)
 *   POST /r/<resource>/stats         body: filter params, groupBy, stackBy, months, sum → { total, groups?, months? }
 *   GET  <source path>?pageNo=&pageSize=&orderBy=&<filters>   a list's `source` (a legacy endpoint), same page shape
 *   GET  /r/<resource>/flow-times?months=<from>,<to>  → { submitted, finished, avgDays, p90Days }
 *   GET  /r/<resource>/export?...    XLSX download (filters, orderBy, screen = list screen id), when the app passes `url`
 *   GET  /r/<resource>/import-template?screen=   XLSX template of the import, when the app passes `url`
 *   POST /r/<resource>/import        multipart: file, screen → { count }; refused rows: IMPORT_INVALID with
 *                                    data { problems: [{ row, field, message }], total }, when the app passes `postFile`
 *
 * The app supplies the transport (its one HTTP client: session parameters, envelope unwrapping),
 * so this module knows paths and bodies only. Transport failures become EngineErrors.
 */
import type { AttachmentValue, DataProvider, ImportProblem, MobileUploadState, ImportResult, ListQuery, PageResult, RecordData, StatsResult, FlowTimesResult } from './provider';
import { toEngineError } from './provider';

export interface RestTransport {
  /** GET `path` and resolve with the reply's data (envelope unwrapped); reject on failure. */
  get<T>(path: string, signal?: AbortSignal): Promise<T>;
  /** POST `body` as JSON to `path` and resolve with the reply's data. */
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
  /** POST multipart (uploads when `uploadPath` is set, imports). `onProgress` gets the percentage sent. */
  postFile?<T>(path: string, fields: Record<string, string | Blob>, options?: { signal?: AbortSignal; onProgress?(percent: number): void }): Promise<T>;
  /** Absolute address of an API path (downloads); without it the lists offer no export. */
  url?(path: string): string;
}

export interface RestOptions {
  /** Upload route of attachment files (multipart `file`, optional `refId`; replies with the stored file's id, name, url, size); absent: no uploads. */
  uploadPath?: string;
  /**
   * Upload by phone: `tokenPath` (POST { attrefsysid?, field, fieldLabel? } → { token, expiresAt }),
   * `statePath` (GET ?token= → { files, used, expired }) and the phone page's address of a token;
   * absent: attachment fields offer no QR code.
   */
  mobileUpload?: { tokenPath: string; statePath: string; pageUrl(token: string): string };
}

const path = (resource: string, operation: string, id?: string) =>
  `/r/${encodeURIComponent(resource)}/${operation}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

/** `sort` as the server's `orderBy` parameter. */
export function orderByOf(sort: ListQuery['sort']): string | undefined {
  if (!sort?.length) return undefined;
  return sort.map((s) => (s.order === 'desc' ? `${s.field} desc` : s.field)).join(',');
}

/** The list body: paging, order and the non-empty filters. */
export function listParams(query: Partial<ListQuery>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query.filters ?? {})) {
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    params[name] = value;
  }
  if (query.pageNo !== undefined) params.pageNo = query.pageNo;
  if (query.pageSize !== undefined) params.pageSize = query.pageSize;
  const orderBy = orderByOf(query.sort);
  if (orderBy) params.orderBy = orderBy;
  return params;
}

function searchOf(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  return search.toString();
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if ((error as { name?: string })?.name === 'CanceledError' || (error as { name?: string })?.name === 'AbortError') throw error;
    throw toEngineError(error);
  }
}

/** The outcome of an import the server refused row by row (IMPORT_INVALID), or undefined for any other failure. */
function refusedRows(error: unknown): ImportResult | undefined {
  const { code, data, message } = (error ?? {}) as { code?: unknown; data?: { problems?: unknown; total?: unknown }; message?: unknown };
  if (code !== 'IMPORT_INVALID' || !Array.isArray(data?.problems)) return undefined;
  const problems = data.problems as ImportProblem[];
  return { ok: false, message: typeof message === 'string' ? message : '导入数据有误，未导入任何数据', problems, total: typeof data.total === 'number' ? data.total : problems.length };
}

export function createRestDataProvider(transport: RestTransport, options: RestOptions = {}): DataProvider {
  const provider: DataProvider = {
    getList: (resource, query, signal) => guarded(() => transport.post<PageResult>(path(resource, 'list'), listParams(query), signal)),
    getOne: (resource, id, signal) => guarded(() => transport.get<RecordData>(path(resource, 'get', id), signal)),
    save: (resource, record, { commit = false } = {}) =>
      guarded(() => transport.post<RecordData>(path(resource, 'save'), commit ? { ...record, isCommit: true } : record)),
    action: (resource, action, id, input = {}) => guarded(() => transport.post<RecordData | null>(path(resource, action, id), input)),
    flowLog: (resource, id, signal) => guarded(() => transport.get(path(resource, 'flowLog', id), signal)),
    auditLog: (resource, id, signal) => guarded(() => transport.get(path(resource, 'auditLog', id), signal)),
    document: (resource, id, signal) => guarded(() => transport.get(path(resource, 'document', id), signal)),
    stats: (resource, { filters, groupBy, stackBy, months, sum }, signal) =>
      guarded(() =>
        transport.post<StatsResult>(
          path(resource, 'stats'),
          { ...listParams({ filters }), ...(groupBy ? { groupBy } : {}), ...(stackBy ? { stackBy } : {}), ...(months ? { months: months.join(',') } : {}), ...(sum ? { sum } : {}) },
          signal,
        ),
      ),
    flowTimes: (resource, { months }, signal) =>
      guarded(() => transport.get<FlowTimesResult>(`${path(resource, 'flow-times')}${months ? `?months=${months.join(',')}` : ''}`, signal)),
  };
  provider.getListAt = (apiPath, query, signal) =>
    guarded(async () => {
      const page = await transport.get<PageResult>(`${apiPath}${apiPath.includes('?') ? '&' : '?'}${searchOf(listParams(query))}`, signal);
      return { ...page, count: Number(page.count) || 0 };
    });
  provider.getAt = (apiPath, signal) => guarded(() => transport.get<RecordData>(apiPath, signal));
  provider.call = (apiPath, body) => guarded(() => transport.post<unknown>(apiPath, body));
  const url = transport.url;
  if (url) provider.exportUrl = (resource, query, screenId) =>
      `${url(path(resource, 'export'))}?${searchOf({ ...listParams(query), ...(screenId ? { screen: screenId } : {}) })}`;
  if (url) provider.importTemplateUrl = (resource, screenId) => `${url(path(resource, 'import-template'))}${screenId ? `?${searchOf({ screen: screenId })}` : ''}`;
  const { uploadPath } = options;
  const postFile = transport.postFile;
  if (postFile) {
    provider.importFile = async (resource, file, { screen, signal, onProgress } = {}): Promise<ImportResult> => {
      const fields: Record<string, string | Blob> = screen ? { screen, file } : { file };
      try {
        const done = await postFile<{ count: number }>(path(resource, 'import'), fields, { signal, onProgress });
        return { ok: true, count: done.count, message: `成功导入 ${done.count} 条` };
      } catch (error) {
        const refused = refusedRows(error);
        if (refused) return refused;
        if ((error as { name?: string })?.name === 'CanceledError' || (error as { name?: string })?.name === 'AbortError') throw error;
        throw toEngineError(error);
      }
    };
  }
  if (uploadPath && postFile) {
    provider.upload = async (file, { signal, refId, onProgress } = {}) => {
      const fields: Record<string, string | Blob> = refId ? { refId, file } : { file };
      const stored = await guarded(() => postFile<AttachmentValue>(uploadPath, fields, { signal, onProgress }));
      // Keep what a field value holds, whatever else the server sends.
      return { id: stored.id, name: stored.name, url: stored.url, size: stored.size };
    };
  }
  const { mobileUpload } = options;
  if (mobileUpload) {
    provider.mobileUpload = async ({ refId, field, fieldLabel }) => {
      const ticket = await guarded(() => transport.post<{ token: string; expiresAt: string }>(mobileUpload.tokenPath, { ...(refId ? { attrefsysid: refId } : {}), field, ...(fieldLabel ? { fieldLabel } : {}) }));
      return { ...ticket, url: mobileUpload.pageUrl(ticket.token) };
    };
    provider.mobileUploadState = (token, signal) => guarded(() => transport.get<MobileUploadState>(`${mobileUpload.statePath}?${searchOf({ token })}`, signal));
  }
  return provider;
}
