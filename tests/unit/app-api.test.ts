/**
 * The one HTTP client (src/app/api.ts) against a stub fetch (and a stub XMLHttpRequest for an upload
 * that reports progress): what the original API says about a reply — the envelope's flags decide success;
 * a reply without result, success and isSuccess that carries errorMsg or errmsg is a failure shown as
 * an error toast; anything else without the flags (a file, raw data) is data; a transport failure
 * toasts 服务器出错了请稍后再试; a request the caller cancels rejects with an AbortError, no toast.
 */
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
  /** Never answers (until aborted). */
  hang?: boolean;
}

let next: Stub = {};
let seen: { url: URL; init: RequestInit } | undefined;

/** Answers like a server: JSON for plain values, the Blob itself for a file. */
const stubFetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
  seen = { url: new URL(input, 'http://portal.test'), init };
  if (next.network) throw new TypeError('fetch failed');
  if (next.hang)
    return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError'))));
  const isFile = next.body instanceof Blob;
  return new Response(isFile ? (next.body as Blob) : JSON.stringify(next.body), {
    status: next.status ?? 200,
    headers: { 'content-type': isFile ? 'application/pdf' : 'application/json' },
  });
};

let api: typeof import('../../src/app/api');

beforeAll(async () => {
  vi.stubGlobal('fetch', stubFetch);
  api = await import('../../src/app/api');
});

afterEach(() => {
  toast.error.mockClear();
  next = {};
  vi.useRealTimers();
});

const reply = (body: unknown, status = 200) => (next = { body, status });
const failure = (p: Promise<unknown>) =>
  p.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (err: unknown) => err as InstanceType<typeof api.ApiError>,
  );

describe('the api client', () => {
  it('sends __sid and __extend with every request, under the API base, with cookies', async () => {
    reply({ result: 'true', success: true, isSuccess: true, data: 1 });
    await api.get('/a/x', { params: { pageNo: 2, name: '张 三&', none: undefined, empty: null } });
    expect(seen?.url.pathname).toBe(`${__API_BASE__}/a/x`);
    expect(Object.fromEntries(seen!.url.searchParams)).toEqual({ pageNo: '2', name: '张 三&', __sid: 'tok-1', __extend: 'ext-1' });
    expect(seen?.init).toMatchObject({ method: 'GET', credentials: 'include' });
  });

  it('posts JSON, a form or multipart as such', async () => {
    reply({ success: true, data: null });
    await api.post('/a/x', { a: [1, '二'] });
    expect(seen?.init).toMatchObject({ method: 'POST', body: '{"a":[1,"二"]}', headers: { 'Content-Type': 'application/json' } });
    await api.post('/a/x');
    expect(seen?.init.body).toBe('{}');
    await api.postForm('/a/x', { name: 'nb', n: 1, skip: undefined, none: null });
    expect(String(seen?.init.body)).toBe('name=nb&n=1');
    expect(seen?.init.headers).not.toHaveProperty('Content-Type'); // the browser writes the form's own
    await api.postFile('/a/upload', { refId: 'r1', file: new Blob(['x']) }, { params: { token: 't' } });
    expect(seen?.init.body).toBeInstanceOf(FormData);
    expect((seen?.init.body as FormData).get('refId')).toBe('r1');
    expect(seen?.url.searchParams.get('token')).toBe('t');
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
    expect(toast.error).toHaveBeenCalledWith({ content: '当前状态不允许此操作', key: '当前状态不允许此操作' });
  });

  describe('a reply without result, success and isSuccess (the original error handling)', () => {
    it('carrying errorMsg: a business failure whose text is toasted', async () => {
      reply({ errorMsg: '未找到该申报记录' });
      const err = await failure(api.get('/a/x'));
      expect(err).toBeInstanceOf(api.ApiError);
      expect(err).toMatchObject({ kind: 'business', message: '未找到该申报记录' });
      expect(toast.error).toHaveBeenCalledTimes(1);
      expect(toast.error).toHaveBeenCalledWith({ content: '未找到该申报记录', key: '未找到该申报记录' });
    });

    it('carrying errmsg (the legacy spelling): the same, and silent leaves the toast to the caller', async () => {
      reply({ errmsg: '验证码错误', data: null });
      await expect(failure(api.postForm('/a/x', { a: 1 }))).resolves.toMatchObject({ kind: 'business', message: '验证码错误' });
      expect(toast.error).toHaveBeenCalledWith({ content: '验证码错误', key: '验证码错误' });
      toast.error.mockClear();
      reply({ errmsg: '验证码错误' });
      await expect(failure(api.postForm('/a/x', { a: 1 }, { silent: true }))).resolves.toMatchObject({ kind: 'business', message: '验证码错误' });
      expect(toast.error).not.toHaveBeenCalled();
    });

    it('on an error status too: its message rather than the transport toast', async () => {
      reply({ errmsg: '上传文件过大' }, 413);
      await expect(failure(api.post('/a/x'))).resolves.toMatchObject({ kind: 'business', status: 413, message: '上传文件过大' });
      expect(toast.error).toHaveBeenCalledWith({ content: '上传文件过大', key: '上传文件过大' });
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
      const got = await api.getBlob('/a/file');
      expect(got).toBeInstanceOf(Blob);
      expect(got.type).toBe('application/pdf');
      expect(await got.text()).toBe('%PDF-1.7');
      expect(seen?.url.searchParams.get('_t')).toMatch(/^\d+$/); // never a cached copy
      expect(toast.error).not.toHaveBeenCalled();
    });
  });

  it("a 401: the session ends with the server's message", async () => {
    reply({ result: 'false', code: 'UNAUTHENTICATED', errorMsg: '未登录或登录超时' }, 401);
    await expect(failure(api.get('/a/x', { silent: true }))).resolves.toMatchObject({
      kind: 'unauthenticated',
      status: 401,
      code: 'UNAUTHENTICATED',
      message: '未登录或登录超时',
    });
    expect(toast.error).toHaveBeenCalledWith({ content: '登录已过期，请重新登录', key: '登录已过期，请重新登录' });
  });

  it('a 401 for a session a newer login ended: its message is kept for the login page, no toast', async () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => stored.set(k, v),
      removeItem: (k: string) => stored.delete(k),
    });
    await new Promise((r) => setTimeout(r, 1100)); // the previous 401's redirect guard
    const message = '您的账号已在其他地方登录，当前会话已结束';
    reply({ result: 'false', code: 'SESSION_SUPERSEDED', message, errorMsg: message }, 401);
    await expect(failure(api.get('/a/x'))).resolves.toMatchObject({ kind: 'unauthenticated', code: 'SESSION_SUPERSEDED', message });
    expect(toast.error).not.toHaveBeenCalled();
    expect(api.loginNotice()).toBe(message);
    api.dropLoginNotice();
    expect(api.loginNotice()).toBeNull();
  });

  it('a request the caller cancels: an AbortError, no toast', async () => {
    next = { hang: true };
    const controller = new AbortController();
    const pending = api.get('/a/x', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(api.get('/a/x', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('no reply within 60 s: a transport failure', async () => {
    vi.useFakeTimers();
    next = { hang: true };
    const pending = failure(api.get('/a/x'));
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(pending).resolves.toMatchObject({ kind: 'transport', message: api.SERVER_ERROR_MESSAGE });
    expect(toast.error).toHaveBeenCalledWith({ content: '服务器出错了请稍后再试', key: '服务器出错了请稍后再试' });
  });

  it('an upload with onProgress reports the percentage sent and unwraps the reply', async () => {
    class StubXhr {
      static last: StubXhr;
      upload: { onprogress?: (e: { loaded: number; total: number }) => void } = {};
      opened: string[] = [];
      headers: Record<string, string> = {};
      withCredentials = false;
      timeout = 0;
      status = 0;
      responseText = '';
      sent: unknown;
      onload?: () => void;
      onerror?: () => void;
      ontimeout?: () => void;
      onabort?: () => void;
      constructor() {
        StubXhr.last = this;
      }
      open(method: string, url: string) {
        this.opened = [method, url];
      }
      setRequestHeader(name: string, value: string) {
        this.headers[name] = value;
      }
      send(body: unknown) {
        this.sent = body;
        this.upload.onprogress?.({ loaded: 50, total: 200 });
        this.upload.onprogress?.({ loaded: 200, total: 200 });
        this.status = 200;
        this.responseText = JSON.stringify({ success: true, data: { id: 'f1' } });
        this.onload?.();
      }
      abort() {
        this.onabort?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', StubXhr);
    const percents: number[] = [];
    await expect(api.postFile('/a/upload', { file: new Blob(['x']) }, { onProgress: (p) => percents.push(p) })).resolves.toEqual({ id: 'f1' });
    expect(percents).toEqual([25, 100]);
    const xhr = StubXhr.last;
    expect(xhr.opened[0]).toBe('POST');
    expect(new URL(xhr.opened[1], 'http://portal.test').searchParams.get('__sid')).toBe('tok-1');
    expect(xhr).toMatchObject({ withCredentials: true, timeout: 600_000 });
    expect(xhr.sent).toBeInstanceOf(FormData);
    vi.unstubAllGlobals();
    vi.stubGlobal('fetch', stubFetch);
  });

  it('a transport failure: 服务器出错了请稍后再试, rejected', async () => {
    next = { network: true };
    await expect(failure(api.get('/a/x'))).resolves.toMatchObject({ kind: 'transport', message: api.SERVER_ERROR_MESSAGE });
    expect(toast.error).toHaveBeenCalledWith({ content: '服务器出错了请稍后再试', key: '服务器出错了请稍后再试' });
    toast.error.mockClear();
    reply('<html>bad gateway</html>', 502);
    await expect(failure(api.get('/a/x'))).resolves.toMatchObject({ kind: 'transport', status: 502 });
    expect(toast.error).toHaveBeenCalledWith({ content: '服务器出错了请稍后再试', key: '服务器出错了请稍后再试' });
  });
});
