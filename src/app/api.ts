/**
 * The one HTTP client (SPEC.md §7, §8). Every request goes to `__API_BASE__` with the session's
 * `__sid` / `__extend` query parameters; every reply is unwrapped from the JeeSite envelope (a
 * reply without its flags is data, unless it carries errorMsg / errmsg: then it is a failure).
 * Failures become a typed `ApiError` after a toast; a 401 ends the session and shows the login.
 * The UI never uses axios directly: it calls these functions or the hooks in `queries.ts`.
 */
import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import { EXTEND_PARAM, SESSION_PARAM, type Envelope } from '../shared/contract';
import { navigateTo } from './navigation';
import { notify } from './notify';
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

const client = axios.create({ baseURL: __API_BASE__, withCredentials: true, timeout: 60_000 });

client.interceptors.request.use((config) => {
  const { token, extendToken } = session.get();
  config.params = { ...config.params };
  if (token) config.params[SESSION_PARAM] = token;
  if (extendToken) config.params[EXTEND_PARAM] = extendToken;
  return config;
});

function isEnvelope(body: unknown): body is WireEnvelope<unknown> {
  return typeof body === 'object' && body !== null && ('result' in body || 'success' in body || 'isSuccess' in body);
}

const isMessage = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * SPEC.md §8: a reply without result, success and isSuccess whose JSON object carries errorMsg or
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

function endSession(): void {
  if (redirectingToLogin) return;
  redirectingToLogin = true;
  session.clear();
  notify.message.error(SESSION_EXPIRED_MESSAGE);
  navigateTo('/login', { replace: true });
  setTimeout(() => (redirectingToLogin = false), 1000);
}

function fail(error: ApiError, silent?: boolean): never {
  if (error.kind === 'unauthenticated') endSession();
  else if (!silent) notify.message.error(error.message);
  throw error;
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof AxiosError && err.response) {
    const { status, data } = err.response;
    const body = isEnvelope(data) || isFlaglessFailure(data) ? data : null;
    if (status === 401) return new ApiError('unauthenticated', body ? failureMessage(body) : SESSION_EXPIRED_MESSAGE, { status, code: body?.code });
    if (body) return new ApiError('business', failureMessage(body), { status, code: body.code, data: body.data });
    return new ApiError('transport', SERVER_ERROR_MESSAGE, { status });
  }
  return new ApiError('transport', SERVER_ERROR_MESSAGE);
}

async function send<T>(config: AxiosRequestConfig, options: RequestOptions = {}): Promise<T> {
  let body: unknown;
  try {
    body = (await client.request({ ...config, params: { ...config.params, ...options.params }, signal: options.signal })).data;
  } catch (err) {
    if (axios.isCancel(err)) throw err;
    return fail(toApiError(err), options.silent);
  }
  if (isFlaglessFailure(body)) return fail(new ApiError('business', failureMessage(body), { code: body.code }), options.silent);
  if (!isEnvelope(body)) return body as T;
  if (!isSuccessful(body)) return fail(new ApiError('business', failureMessage(body), { code: body.code, data: body.data }), options.silent);
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
  const onProgress = options?.onProgress;
  return send<T>(
    {
      method: 'POST',
      url,
      data: form,
      timeout: UPLOAD_TIMEOUT_MS,
      onUploadProgress: onProgress ? (e) => onProgress(e.total ? Math.min(100, Math.round((e.loaded / e.total) * 100)) : 0) : undefined,
    },
    options,
  );
}

/** A binary reply (captcha image, downloads), with cookies, as a Blob. */
export async function getBlob(url: string, options?: RequestOptions): Promise<Blob> {
  return send<Blob>({ method: 'GET', url, responseType: 'blob', params: { _t: Date.now() } }, options);
}

/** The absolute address of an API path (links, images). */
export function apiUrl(path: string): string {
  return `${__API_BASE__}${path}`;
}
