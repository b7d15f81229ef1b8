/**
 * The one HTTP client (the original API and its error handling). Every request goes to `__API_BASE__` with the session's
 * `__sid` / `__extend` query parameters; every reply is unwrapped from the JeeSite envelope (a
 * reply without its flags is data, unless it carries errorMsg / errmsg: then it is a failure).
 * Failures become a typed `ApiError` after a toast; a 401 ends the session and shows the login.
 * The UI calls these functions or the hooks in `queries.ts`, never fetch itself.
 *
 * Built on the browser's fetch (no HTTP library: the login page's JavaScript budget);
 * an upload that reports its progress goes by XMLHttpRequest, the one browser API that has it.
 */
import { EXTEND_PARAM, SESSION_PARAM, type Envelope } from '../shared/contract';
import { navigateTo } from './navigation';
import { notify } from './notify';
import { trackRequest } from './progress';
import { session } from './session';

export const SERVER_ERROR_MESSAGE = '服务器出错了请稍后再试';
const SESSION_EXPIRED_MESSAGE = '登录已过期，请重新登录';

export type ApiErrorKind = 'business' | 'unauthenticated' | 'transport';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** Catalogue code from the server (`INVALID_CREDENTIALS`, ...), when it sent one. */
  readonly code?: string;
  readonly status?: number;
  /** The failure envelope's `data` (details of a refusal, e.g. the rows of a refused import). */
  readonly data?: unknown;

  constructor(kind: ApiErrorKind, message: string, options: { code?: string; status?: number; data?: unknown } = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = options.code;
    this.status = options.status;
    if (options.data !== undefined) this.data = options.data;
  }
}

export interface RequestOptions {
  /** Do not toast the failure: the caller shows it (e.g. inline on the login form). */
  silent?: boolean;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** Legacy replies may spell the error text `errmsg`. */
type WireEnvelope<T> = Partial<Omit<Envelope<T>, 'result'>> & { result?: 'true' | 'false' | boolean; errmsg?: string };

const TIMEOUT_MS = 60_000;

/** One request as `send` makes it. */
interface Call {
  method: 'GET' | 'POST';
  url: string;
  /** A JSON body (any value but FormData / URLSearchParams), a form or multipart body. */
  data?: unknown;
  params?: Record<string, unknown>;
  /** The reply body as a Blob (a successful one: failures are read as JSON or text). */
  blob?: boolean;
  timeout?: number;
  onUploadProgress?(percent: number): void;
}

/** What came back: the status and the body, parsed as JSON when it is JSON (else text, or a Blob). */
interface Reply {
  status: number;
  body: unknown;
}

const ABSOLUTE_URL = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/** `__API_BASE__` + `url` + the query: `params` (no null or undefined; arrays repeat the name), then the session's `__sid` / `__extend`. */
function address(url: string, params: Record<string, unknown> = {}): string {
  const { token, extendToken } = session.get();
  const query = new URLSearchParams();
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    query.append(name, value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value));
  };
  for (const [name, value] of Object.entries(params)) for (const item of Array.isArray(value) ? value : [value]) add(name, item);
  add(SESSION_PARAM, token || undefined);
  add(EXTEND_PARAM, extendToken || undefined);
  const base = ABSOLUTE_URL.test(url) ? url : `${__API_BASE__.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
  const search = query.toString();
  return search ? `${base}${base.includes('?') ? '&' : '?'}${search}` : base;
}

/** The body and its content type (none: the browser sets it for a form or multipart body). */
function encode(data: unknown): { body?: BodyInit; type?: string } {
  if (data === undefined) return {};
  if (data instanceof FormData || data instanceof URLSearchParams || data instanceof Blob) return { body: data };
  return { body: JSON.stringify(data), type: 'application/json' };
}

function parse(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const aborted = () => new DOMException('The operation was aborted.', 'AbortError');

/** fetch with a time limit and the caller's signal; rejects on no reply (network, time-out, abort). */
async function transmit(call: Call, signal?: AbortSignal): Promise<Reply> {
  if (signal?.aborted) throw aborted();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), call.timeout ?? TIMEOUT_MS);
  const cancel = () => controller.abort();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const { body, type } = encode(call.data);
    const response = await fetch(address(call.url, call.params), {
      method: call.method,
      credentials: 'include',
      headers: { Accept: 'application/json, text/plain, */*', ...(type ? { 'Content-Type': type } : {}) },
      body,
      signal: controller.signal,
    });
    return { status: response.status, body: call.blob && response.ok ? await response.blob() : parse(await response.text()) };
  } catch (err) {
    throw signal?.aborted ? aborted() : err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
}

/** The same by XMLHttpRequest, reporting the percentage of the body sent. */
function transmitWithProgress(call: Call, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<Reply> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const xhr = new XMLHttpRequest();
    const cancel = () => xhr.abort();
    const settle = (done: () => void) => () => {
      signal?.removeEventListener('abort', cancel);
      done();
    };
    xhr.open(call.method, address(call.url, call.params));
    xhr.withCredentials = true;
    xhr.timeout = call.timeout ?? TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json, text/plain, */*');
    const { body, type } = encode(call.data);
    if (type) xhr.setRequestHeader('Content-Type', type);
    xhr.upload.onprogress = (e) => onProgress(e.total ? Math.min(100, Math.round((e.loaded / e.total) * 100)) : 0);
    xhr.onload = settle(() => resolve({ status: xhr.status, body: parse(xhr.responseText) }));
    xhr.onerror = xhr.ontimeout = settle(() => reject(new TypeError('network error')));
    xhr.onabort = settle(() => reject(aborted()));
    signal?.addEventListener('abort', cancel, { once: true });
    xhr.send((body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

function isEnvelope(body: unknown): body is WireEnvelope<unknown> {
  return typeof body === 'object' && body !== null && ('result' in body || 'success' in body || 'isSuccess' in body);
}

const isMessage = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * The original error handling: a reply without result, success and isSuccess whose JSON object carries errorMsg or
 * errmsg is a failure, that message being shown. Without those fields (a file, raw data) it is data.
 */
function isFlaglessFailure(body: unknown): body is WireEnvelope<unknown> {
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype || isEnvelope(body)) return false;
  const { errorMsg, errmsg } = body as { errorMsg?: unknown; errmsg?: unknown };
  return isMessage(errorMsg) || isMessage(errmsg);
}

function isSuccessful(body: WireEnvelope<unknown>): boolean {
  return body.result === 'true' || body.result === true || body.success === true || body.isSuccess === true;
}

function failureMessage(body: WireEnvelope<unknown>): string {
  return [body.errorMsg, body.errmsg, body.message].find(isMessage) ?? SERVER_ERROR_MESSAGE;
}

let redirectingToLogin = false;

/** sessionStorage: why the server ended the session, for the login page to show (once). */
const LOGIN_NOTICE_KEY = 'portal.loginNotice';

/**
 * A 401: the session is over (登录已过期). A session the server ended for a reason of its own (a
 * newer login of the account) has its message kept for the login page instead of the toast.
 */
function endSession(error: ApiError): void {
  if (redirectingToLogin) return;
  redirectingToLogin = true;
  session.clear();
  if (error.code === 'SESSION_SUPERSEDED') sessionStorage.setItem(LOGIN_NOTICE_KEY, error.message);
  else toastError(SESSION_EXPIRED_MESSAGE);
  navigateTo('/login', { replace: true });
  setTimeout(() => (redirectingToLogin = false), 1000);
}

/** Why the server ended the last session, if it said (read by the login page; see dropLoginNotice). */
export function loginNotice(): string | null {
  return sessionStorage.getItem(LOGIN_NOTICE_KEY);
}

export function dropLoginNotice(): void {
  sessionStorage.removeItem(LOGIN_NOTICE_KEY);
}

/** An error toast keyed by its text: the same message shown again meanwhile (a screen repeating a failure the client showed) is one toast. */
function toastError(text: string): void {
  void notify.message.error({ content: text, key: text });
}

function fail(error: ApiError, silent?: boolean): never {
  if (error.kind === 'unauthenticated') endSession(error);
  else if (!silent) toastError(error.message);
  throw error;
}

/** A reply with an error status as an ApiError: its envelope's message when it has one. */
function statusError({ status, body: data }: Reply): ApiError {
  const body = isEnvelope(data) || isFlaglessFailure(data) ? data : null;
  if (status === 401) return new ApiError('unauthenticated', body ? failureMessage(body) : SESSION_EXPIRED_MESSAGE, { status, code: body?.code });
  if (body) return new ApiError('business', failureMessage(body), { status, code: body.code, data: body.data });
  return new ApiError('transport', SERVER_ERROR_MESSAGE, { status });
}

/** A request; one made while a navigation settles holds the progress bar (progress.ts). */
function send<T>(call: Call, options: RequestOptions = {}): Promise<T> {
  return trackRequest(sendNow<T>(call, options));
}

async function sendNow<T>(call: Call, options: RequestOptions = {}): Promise<T> {
  const { signal, silent } = options;
  const request = { ...call, params: { ...call.params, ...options.params } };
  let reply: Reply;
  try {
    reply = call.onUploadProgress ? await transmitWithProgress(request, call.onUploadProgress, signal) : await transmit(request, signal);
  } catch (err) {
    if (signal?.aborted) throw err; // cancelled by the caller: no toast
    return fail(new ApiError('transport', SERVER_ERROR_MESSAGE), silent);
  }
  if (reply.status < 200 || reply.status >= 300) return fail(statusError(reply), silent);
  const { body } = reply;
  if (isFlaglessFailure(body)) return fail(new ApiError('business', failureMessage(body), { code: body.code }), silent);
  if (!isEnvelope(body)) return body as T;
  if (!isSuccessful(body)) return fail(new ApiError('business', failureMessage(body), { code: body.code, data: body.data }), silent);
  return body.data as T;
}

/** The `data` of a GET reply. */
export function get<T>(url: string, options?: RequestOptions): Promise<T> {
  return send<T>({ method: 'GET', url }, options);
}

/** POST with a JSON body. */
export function post<T>(url: string, body?: unknown, options?: RequestOptions): Promise<T> {
  return send<T>({ method: 'POST', url, data: body ?? {} }, options);
}

/** POST form-encoded (`application/x-www-form-urlencoded`). */
export function postForm<T>(url: string, fields: Record<string, string | number | boolean | null | undefined>, options?: RequestOptions): Promise<T> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) form.append(key, String(value));
  return send<T>({ method: 'POST', url, data: form }, options);
}

/** Uploads may take longer than an ordinary request (PORTAL_ATTACHMENT_MAX_MB defaults to 20 MB). */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/** POST multipart (file upload); `onProgress` gets the percentage sent. */
export function postFile<T>(url: string, fields: Record<string, string | Blob>, options?: RequestOptions & { onProgress?(percent: number): void }): Promise<T> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return send<T>({ method: 'POST', url, data: form, timeout: UPLOAD_TIMEOUT_MS, onUploadProgress: options?.onProgress }, options);
}

/** A binary reply (captcha image, downloads), with cookies, as a Blob. */
export async function getBlob(url: string, options?: RequestOptions): Promise<Blob> {
  return send<Blob>({ method: 'GET', url, blob: true, params: { _t: Date.now() } }, options);
}

/** The absolute address of an API path (links, images). */
export function apiUrl(path: string): string {
  return `${__API_BASE__}${path}`;
}
