/**
 * The one HTTP client (src/app/api.ts) against a stub axios adapter: what SPEC.md §7/§8 say about a
 * reply — the envelope's flags decide success; a reply without result, success and isSuccess that
 * carries errorMsg or errmsg is a failure shown as an error toast; anything else without the flags
 * (a file, raw data) is data; a transport failure toasts 服务器出错了请稍后再试.
 */
import axios, { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const toast = vi.hoisted(() => ({ error: vi.fn() }));
vi.mock('../../src/app/notify', () => ({ notify: { message: toast } }));
vi.mock('../../src/app/navigation', () => ({ navigateTo: vi.fn() }));
vi.mock('../../src/app/session', () => ({ session: { get: () => ({ token: 'tok-1', extendToken: 'ext-1' }), clear: vi.fn() } }));

interface Stub {
  status?: number;
  body?: unknown;
  /** Fails before any reply (no connection). */
  network?: boolean;
}

let next: Stub = {};
let seen: InternalAxiosRequestConfig | undefined;

/** Answers like the http adapter: a JSON text (parsed by axios), rejecting statuses >= 400. */
const adapter: AxiosAdapter = async (config) => {
  seen = config;
  if (next.network) throw new AxiosError('connect ECONNREFUSED', AxiosError.ERR_NETWORK, config);
  const status = next.status ?? 200;
  const isText = typeof next.body !== 'object' || next.body === null || next.body.constructor === Object || Array.isArray(next.body);
  const response: AxiosResponse = {
    data: isText ? JSON.stringify(next.body) : next.body,
    status,
    statusText: String(status),
    headers: new AxiosHeaders({ 'content-type': isText ? 'application/json' : 'application/octet-stream' }),
    config,
  };
  if (status >= 400) throw new AxiosError(`status ${status}`, AxiosError.ERR_BAD_RESPONSE, config, {}, response);
  return response;
};

let api: typeof import('../../src/app/api');

beforeAll(async () => {
  // The client is created when the module loads and takes the defaults of that moment.
  axios.defaults.adapter = adapter;
  api = await import('../../src/app/api');
});

afterEach(() => {
  toast.error.mockClear();
  next = {};
});

const reply = (body: unknown, status = 200) => (next = { body, status });
const failure = (p: Promise<unknown>) => p.then(
  (value) => {
    throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
  },
  (err: unknown) => err as InstanceType<typeof api.ApiError>,
);

describe('the api client', () => {
  it('sends __sid and __extend with every request', async () => {
    reply({ result: 'true', success: true, isSuccess: true, data: 1 });
    await api.get('/a/x', { params: { pageNo: 2 } });
    expect(seen?.params).toEqual({ pageNo: 2, __sid: 'tok-1', __extend: 'ext-1' });
  });

  it('returns the data of a successful envelope, whichever flag says so', async () => {
    for (const flags of [{ result: 'true' }, { result: true }, { success: true }, { isSuccess: true }]) {
      reply({ ...flags, data: { n: 1 } });
      await expect(api.post('/a/x', {})).resolves.toEqual({ n: 1 });
    }
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('rejects a failed envelope with its errorMsg, toasting it unless silent', async () => {
    reply({ result: 'false', success: false, isSuccess: false, code: 'WRONG_STATE', errorMsg: '当前状态不允许此操作' });
    const err = await failure(api.post('/a/x', {}));
    expect(err).toBeInstanceOf(api.ApiError);
    expect(err).toMatchObject({ kind: 'business', code: 'WRONG_STATE', message: '当前状态不允许此操作' });
    expect(toast.error).toHaveBeenCalledWith('当前状态不允许此操作');
  });

  describe('a reply without result, success and isSuccess (SPEC.md §8)', () => {
    it('carrying errorMsg: a business failure whose text is toasted', async () => {
      reply({ errorMsg: '未找到该申报记录' });
      const err = await failure(api.get('/a/x'));
      expect(err).toBeInstanceOf(api.ApiError);
      expect(err).toMatchObject({ kind: 'business', message: '未找到该申报记录' });
      expect(toast.error).toHaveBeenCalledTimes(1);
      expect(toast.error).toHaveBeenCalledWith('未找到该申报记录');
    });

    it('carrying errmsg (the legacy spelling): the same, and silent leaves the toast to the caller', async () => {
      reply({ errmsg: '验证码错误', data: null });
      await expect(failure(api.postForm('/a/x', { a: 1 }))).resolves.toMatchObject({ kind: 'business', message: '验证码错误' });
      expect(toast.error).toHaveBeenCalledWith('验证码错误');
      toast.error.mockClear();
      reply({ errmsg: '验证码错误' });
      await expect(failure(api.postForm('/a/x', { a: 1 }, { silent: true }))).resolves.toMatchObject({ kind: 'business', message: '验证码错误' });
      expect(toast.error).not.toHaveBeenCalled();
    });

    it('on an error status too: its message rather than the transport toast', async () => {
      reply({ errmsg: '上传文件过大' }, 413);
      await expect(failure(api.post('/a/x'))).resolves.toMatchObject({ kind: 'business', status: 413, message: '上传文件过大' });
      expect(toast.error).toHaveBeenCalledWith('上传文件过大');
    });

    it('without those fields (raw data): returned as data, no toast', async () => {
      for (const body of [{ list: [{ id: '1' }], count: 1 }, [1, 2], 'text', 42, { errorMsg: '' }, { errmsg: null, value: 1 }]) {
        reply(body);
        await expect(api.get('/a/x')).resolves.toEqual(body);
      }
      expect(toast.error).not.toHaveBeenCalled();
    });

    it('a file: returned as it came', async () => {
      const file = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
      next = { body: file };
      await expect(api.getBlob('/a/file')).resolves.toBe(file);
      expect(toast.error).not.toHaveBeenCalled();
    });
  });

  it('a transport failure: 服务器出错了请稍后再试, rejected', async () => {
    next = { network: true };
    await expect(failure(api.get('/a/x'))).resolves.toMatchObject({ kind: 'transport', message: api.SERVER_ERROR_MESSAGE });
    expect(toast.error).toHaveBeenCalledWith('服务器出错了请稍后再试');
    toast.error.mockClear();
    reply('<html>bad gateway</html>', 502);
    await expect(failure(api.get('/a/x'))).resolves.toMatchObject({ kind: 'transport', status: 502 });
    expect(toast.error).toHaveBeenCalledWith('服务器出错了请稍后再试');
  });
});
