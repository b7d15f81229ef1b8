/**
 * The data layer of the engine, refine-style: one small typed interface that every screen reads
 * and writes through. Filters and sorting travel as data; the engine never builds HTTP requests
 * itself, and every failure reaches the screens as one error shape (`EngineError`).
 */
import type { FlowLogEntry } from '../../shared/contract';

/** A stored record as the server sends it: system fields plus the resource's fields. */
export type RecordData = Record<string, unknown> & { id?: string; status?: string | null; version?: number | null };

/** A page of records. */
export interface PageResult<T = RecordData> {
  pageNo: number;
  pageSize: number;
  count: number;
  list: T[];
}

export interface SortSpec {
  field: string;
  order: 'asc' | 'desc';
}

/**
 * List parameters as data. `filters` are wire parameters by name (`title`, `category` as an
 * array of codes, `publishDate_gte` / `publishDate_lte` for ranges); empty values are omitted.
 */
export interface ListQuery {
  pageNo: number;
  pageSize: number;
  sort?: SortSpec[];
  filters?: Record<string, unknown>;
}

/** One entry of a record's workflow log (the wire shape both sides share). */
export type { FlowLogEntry };

/** Extra input of a workflow action. */
export interface ActionInput {
  opinion?: string;
  version?: number | null;
}

/** A stored attachment as kept in an attachment field's value. */
export interface AttachmentValue {
  name: string;
  url: string;
  id?: string;
  size?: number;
}

export interface DataProvider {
  getList(resource: string, query: ListQuery, signal?: AbortSignal): Promise<PageResult>;
  getOne(resource: string, id: string, signal?: AbortSignal): Promise<RecordData>;
  /** Inserts (no id) or updates (id) a record; `commit` saves and commits in one step. */
  save(resource: string, record: RecordData, options?: { commit?: boolean }): Promise<RecordData>;
  /** Runs a workflow action (commit, revoke, cancel, delete, audit-agree, ...) on one record. */
  action(resource: string, action: string, id: string, input?: ActionInput): Promise<RecordData | null>;
  flowLog(resource: string, id: string, signal?: AbortSignal): Promise<FlowLogEntry[]>;
  /** Download address of the rows matching a query; absent: the list offers no export. */
  exportUrl?(resource: string, query: Omit<ListQuery, 'pageNo' | 'pageSize'>, screenId?: string): string;
  /** Stores a file for an attachment field; absent: attachment fields are read-only. */
  upload?(file: File, signal?: AbortSignal): Promise<AttachmentValue>;
}

/** The one error shape of the data layer; `message` is ready to show to the user (Chinese). */
export class EngineError extends Error {
  /** Stable code from the server's error catalogue, when it sent one. */
  readonly code?: string;
  /** The field a validation failure is about, when the server named one. */
  readonly field?: string;
  constructor(message: string, options: { code?: string; field?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'EngineError';
    this.code = options.code;
    this.field = options.field;
  }
}

export const FALLBACK_ERROR_MESSAGE = '操作失败，请稍后再试';

/** Any thrown value as an EngineError (keeps a `code` / `message` an app error already carries). */
export function toEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  if (error instanceof Error) {
    const { code, data } = error as Error & { code?: unknown; data?: { field?: unknown } };
    return new EngineError(error.message || FALLBACK_ERROR_MESSAGE, {
      code: typeof code === 'string' ? code : undefined,
      field: typeof data?.field === 'string' ? data.field : undefined,
      cause: error,
    });
  }
  return new EngineError(FALLBACK_ERROR_MESSAGE, { cause: error });
}
