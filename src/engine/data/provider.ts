/**
 * The data layer of the engine, refine-style: one small typed interface that every screen reads
 * and writes through. Filters and sorting travel as data; the engine never builds HTTP requests
 * itself, and every failure reaches the screens as one error shape (`EngineError`).
 */
import type { AuditEntry, FlowLogEntry } from '../../shared/contract';

/** A stored record as the server sends it: system fields plus the resource's fields. */
export type RecordData = Record<string, unknown> & { id?: string; status?: string | null; version?: number | null };

/** A page of records. */
export interface PageResult<T = RecordData> {
  pageNo: number;
  pageSize: number;
  count: number;
  list: T[];
  /** More rows match than were counted (`count` is a lower bound). */
  countCapped?: boolean;
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

/** What a stats read counts: the rows matching `filters` (list parameters), per value of `groupBy` when given. */
export interface StatsQuery {
  filters?: Record<string, unknown>;
  /** A dict, area or bool field (or the workflow state) to count per value; with `months` a date field to count per month. */
  groupBy?: string;
  /** With `groupBy` (not `months`): a second field; each group is split into its values (`groups[].stack`). */
  stackBy?: string;
  /** Count per month of the date field `groupBy`, from the first to the last month (offsets from the current month). */
  months?: readonly [number, number];
  /** An integer field: each value is the sum of it over the rows instead of their number. */
  sum?: string;
}

/** Counts of matching rows; `groups` (largest first, blank values as null) only with `groupBy`. */
export interface StatsResult {
  total: number;
  groups?: { value: string | boolean | null; stack?: string | boolean | null; count: number }[];
  /** With `months`: every month (YYYY-MM) and its count. */
  months?: { month: string; count: number }[];
}

/** How long a workflow's rows took from their first 提交 (commit) to a final state, over the rows the reader may list. */
export interface FlowTimesResult {
  /** Rows first submitted within the months. */
  submitted: number;
  /** Of those, reached a final state other than by cancel. */
  finished: number;
  /** Days from first submission to the final state: mean and 90th percentile of the finished rows (null when none). */
  avgDays: number | null;
  p90Days: number | null;
}

/** One entry of a record's workflow log (the wire shape both sides share). */
export type { AuditEntry, FlowLogEntry };

/** Extra input of a workflow action. */
export interface ActionInput {
  opinion?: string;
  version?: number | null;
  /** Values of the fields the action asks for (workflow action `input`), by field name. */
  [field: string]: unknown;
}

/**
 * A stored attachment as kept in an attachment field's value: `id` is the stored file's id and
 * `url` its download address (values saved before uploads existed may lack id and size).
 */
export interface AttachmentValue {
  name: string;
  url: string;
  id?: string;
  size?: number;
}

/** Extra input of an upload. */
export interface UploadOptions {
  signal?: AbortSignal;
  /** The record the file belongs to, when it already has an id (edit mode). */
  refId?: string;
  /** Progress of the transfer, 0–100. */
  onProgress?(percent: number): void;
}

/** A record to print and the token of its open verification address (document screens). */
export interface PrintedDocument {
  record: RecordData;
  token: string;
}

/** A short-lived, single-use code for uploading one file of an attachment field from a phone. */
export interface MobileUploadTicket {
  token: string;
  /** The address the QR code holds (the phone page with the token). */
  url: string;
  expiresAt: string;
}

/** What a phone has sent with a ticket so far. */
export interface MobileUploadState {
  files: AttachmentValue[];
  used: boolean;
  expired: boolean;
}

/** Extra input of an import. */
export interface ImportOptions {
  /** The list screen importing (its column labels are accepted as headers too). */
  screen?: string;
  signal?: AbortSignal;
  /** Progress of the transfer, 0–100 (the server then checks and writes the rows). */
  onProgress?(percent: number): void;
}

/** One problem of a refused import: Excel row number (1 = header), the column's label, a Chinese message. */
export interface ImportProblem {
  row: number;
  field: string;
  message: string;
}

/**
 * What an import came to: every row written (`ok`), or none because some were wrong — then the
 * first problems (at most the server's limit) and how many there are in all.
 */
export type ImportResult =
  | { ok: true; count: number; message: string }
  | { ok: false; message: string; problems: ImportProblem[]; total: number };

export interface DataProvider {
  getList(resource: string, query: ListQuery, signal?: AbortSignal): Promise<PageResult>;
  /** A page of rows from an API path outside the resource routes (a list's `source`): GET with the list parameters in the query. */
  getListAt?(path: string, query: ListQuery, signal?: AbortSignal): Promise<PageResult>;
  getOne(resource: string, id: string, signal?: AbortSignal): Promise<RecordData>;
  /** One record from an API path outside the resource routes (a detail's `source`): GET of `path`, its query complete. */
  getAt?(path: string, signal?: AbortSignal): Promise<RecordData>;
  /** Inserts (no id) or updates (id) a record; `commit` saves and commits in one step. */
  save(resource: string, record: RecordData, options?: { commit?: boolean }): Promise<RecordData>;
  /** Runs a workflow action (commit, revoke, cancel, delete, audit-agree, ...) on one record. */
  action(resource: string, action: string, id: string, input?: ActionInput): Promise<RecordData | null>;
  flowLog(resource: string, id: string, signal?: AbortSignal): Promise<FlowLogEntry[]>;
  /** Who changed what in a record, newest first; absent: details show no 修改记录. */
  auditLog?(resource: string, id: string, signal?: AbortSignal): Promise<AuditEntry[]>;
  /** How many visible rows match the filters (same scope and parameters as getList), optionally per value of a field; absent: stats screens show a load failure. */
  stats?(resource: string, query: StatsQuery, signal?: AbortSignal): Promise<StatsResult>;
  /** Submission-to-completion times of a workflow resource's rows, by month of first submission (offsets from the current month). */
  flowTimes?(resource: string, query: { months?: readonly [number, number] }, signal?: AbortSignal): Promise<FlowTimesResult>;
  /**
   * A record as its printed document (resource `document`): the record and the token of its
   * verification address; the server refuses records outside the document's states. Absent:
   * document screens show a load failure.
   */
  document?(resource: string, id: string, signal?: AbortSignal): Promise<PrintedDocument>;
  /** Download address of the rows matching a query; absent: the list offers no export. */
  exportUrl?(resource: string, query: Omit<ListQuery, 'pageNo' | 'pageSize'>, screenId?: string): string;
  /** Stores a file for an attachment field and resolves with its value; absent: attachment fields are read-only. */
  upload?(file: File, options?: UploadOptions): Promise<AttachmentValue>;
  /** A QR-code ticket for uploading one file of a field from a phone (refId: the record's id when it has one); absent: no phone upload. */
  mobileUpload?(input: { refId?: string; field: string; fieldLabel?: string }): Promise<MobileUploadTicket>;
  /** The files a phone has sent with a ticket (polled by the field while its QR code is shown). */
  mobileUploadState?(token: string, signal?: AbortSignal): Promise<MobileUploadState>;
  /**
   * Imports the rows of a spreadsheet, all or none; resolves with the outcome (refused rows
   * included) and rejects only when the file itself is refused. Absent: the list offers no import.
   */
  importFile?(resource: string, file: File, options?: ImportOptions): Promise<ImportResult>;
  /** Download address of the import template of a resource (for a list screen); absent: no template link. */
  importTemplateUrl?(resource: string, screenId?: string): string;
  /** POSTs `body` to an API path an open form names (its submit, checks and SMS sends) and resolves with the reply; absent: open forms cannot submit. */
  call?(path: string, body: unknown): Promise<unknown>;
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
