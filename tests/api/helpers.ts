/**
 * API test harness: builds the app on an in-memory PGlite, and on a fresh PostgreSQL database when
 * DATABASE_URL is set, with the demo data seeded and the captcha off unless asked.
 */
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import smCrypto from 'sm-crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp, type BuildOptions } from '../../src/server/app';
import { newId } from '../../src/server/db/ids';
import { DEMO_ACCOUNTS, DEMO_UNITS, roleId, seedDemoData, type DemoAccount } from '../../src/server/db/seed';
import { makeUscc } from '../../src/server/db/uscc';
import { passwordHasher } from '../../src/server/services/password';
import type { AttachmentInfo, Envelope, LoginResult } from '../../src/shared/contract';
import { API, ATTACHMENT_ROUTES } from '../../src/shared/contract';
import { API_TEST_TEMPLATE, freshPostgresDatabase, templateFits } from '../support/db-template';
import { forwarding } from '../support/forward';
import { OPEN_LIMITS } from '../support/limits';

export type DbTarget = 'pglite' | 'pg';

/** PGlite always; PostgreSQL too when DATABASE_URL is set. */
export function dbTargets(): DbTarget[] {
  return process.env.DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
}

export interface TestApp {
  app: FastifyInstance;
  close(): Promise<void>;
}

/** A throw-away PostgreSQL database next to DATABASE_URL's (empty unless `fromTemplate`); its URL and a drop function. */
export { freshPostgresDatabase } from '../support/db-template';

/**
 * The app on `target` with the demo units and accounts: started from the prepared test database
 * (support/db-template.ts) unless `overrides` change what the database holds at start, then
 * written as a new user's start would.
 */
export async function makeApp(target: DbTarget, overrides: BuildOptions = {}): Promise<TestApp> {
  const base: BuildOptions = { captchaEnabled: false, ...OPEN_LIMITS, logLevel: 'silent', staticDir: null, dataDir: 'memory://', databaseUrl: null };
  const prepared = templateFits(overrides);
  const database = target === 'pg' ? await freshPostgresDatabase(prepared) : null;
  const app = await buildApp({
    ...base,
    ...(database ? { databaseUrl: database.url } : {}),
    ...(prepared && target === 'pglite' ? { template: API_TEST_TEMPLATE } : {}),
    ...overrides,
  });
  await app.ready();
  if (!prepared) await seedDemoData(app.db);
  return {
    app,
    async close() {
      await app.close();
      await database?.drop();
    },
  };
}

/** Path under the API base. */
export function api(path: string): string {
  return `/espServer${path}`;
}

/**
 * A login field encrypted as the browser does it under the public-key endpoint's key, whichever
 * mode the server runs in: an SPKI PEM key gets RSA-OAEP (SHA-256) as base64, an SM2 point
 * (PORTAL_CRYPTO=sm) gets SM2 C1C3C2 as hex with C1's `04` prefix.
 */
export function encrypt(publicKey: string, text: string): string {
  if (!publicKey.startsWith('-----BEGIN')) return `04${smCrypto.sm2.doEncrypt(text, publicKey, 1)}`;
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text, 'utf8')).toString('base64');
}

export async function publicKey(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: api(API.publicKey) });
  return res.json<Envelope<{ publicKey: string }>>().data!.publicKey;
}

/** The login reply: the envelope plus the session ids and user copied to the top level. */
export type LoginReply = Envelope<LoginResult> & Partial<Pick<LoginResult, 'sessionid' | 'sessionId' | 'extendSessionId' | 'user'>>;

export interface LoginExtras {
  validateCode?: string;
  cookies?: Record<string, string>;
  /** The client address the server sees (default 127.0.0.1). */
  remoteAddress?: string;
}

/** POST /a/login form-encoded with encrypted fields, as the login page sends it. */
export async function loginRequest(
  app: FastifyInstance,
  loginName: string,
  password: string,
  orgCode: string,
  extras: LoginExtras = {},
): Promise<LightMyRequestResponse> {
  const key = await publicKey(app);
  const form = new URLSearchParams({
    username: encrypt(key, loginName),
    password: encrypt(key, password),
    orgCode: encrypt(key, orgCode),
    validateCode: extras.validateCode ?? '',
    ynUserSeedLogin: '',
    __ajax: 'json',
  });
  return app.inject({
    method: 'POST',
    url: api(API.login),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    cookies: extras.cookies,
    remoteAddress: extras.remoteAddress,
    payload: form.toString(),
  });
}

export async function login(app: FastifyInstance, loginName: string, password: string, orgCode: string, extras: LoginExtras = {}): Promise<LoginReply> {
  return (await loginRequest(app, loginName, password, orgCode, extras)).json<LoginReply>();
}

export function demo(loginName: string): DemoAccount {
  const account = DEMO_ACCOUNTS.find((a) => a.loginName === loginName);
  if (!account) throw new Error(`no demo account ${loginName}`);
  return account;
}

/** Logs a demo account in over real HTTP on a running server (`baseURL` without the API base). */
export async function logInOver(baseURL: string, loginName: string): Promise<{ publicKey: string; reply: Envelope<LoginResult> }> {
  const base = `${baseURL}/espServer`;
  const { data } = (await (await fetch(`${base}${API.publicKey}`)).json()) as Envelope<{ publicKey: string }>;
  const { password, orgCode } = demo(loginName);
  const form = new URLSearchParams({
    username: encrypt(data!.publicKey, loginName),
    password: encrypt(data!.publicKey, password),
    orgCode: encrypt(data!.publicKey, orgCode),
    validateCode: '',
    __ajax: 'json',
  });
  const res = await fetch(`${base}${API.login}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  return { publicKey: data!.publicKey, reply: (await res.json()) as Envelope<LoginResult> };
}

/** Logs a demo account in and returns its session token. */
export async function sessionOf(app: FastifyInstance, loginName: string): Promise<string> {
  const { password, orgCode } = demo(loginName);
  const reply = await login(app, loginName, password, orgCode);
  if (reply.result !== 'true') throw new Error(`login of ${loginName} failed: ${reply.message}`);
  return reply.sessionid!;
}

/** An injected request carrying the session token as the `__sid` query parameter. */
export function withSession(app: FastifyInstance, sid: string, options: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
  return app.inject({ ...options, query: { ...(options.query as Record<string, string> | undefined), __sid: sid } });
}

/** Uploads one file through the attachment route as `sid` (a multipart body, as a browser sends it); the stored file's info. */
export async function uploadFile(app: FastifyInstance, sid: string, name: string, bytes: Buffer, type = 'application/pdf'): Promise<AttachmentInfo> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const res = await withSession(app, sid, {
    method: 'POST',
    url: api(ATTACHMENT_ROUTES.upload),
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
  const envelope = res.json<Envelope<AttachmentInfo>>();
  expect(envelope.result, envelope.message).toBe('true');
  return envelope.data!;
}

/** Downloads an attachment as `sid`. */
export const downloadFile = (app: FastifyInstance, sid: string, id: string): Promise<LightMyRequestResponse> =>
  withSession(app, sid, { method: 'GET', url: api(`${ATTACHMENT_ROUTES.download}/${id}`) });

export interface TestUser {
  loginName: string;
  password: string;
  orgCode: string;
  id: string;
}

/**
 * A fresh user of the demo using unit (so tests that lock, change passwords or switch roles do not
 * disturb each other). Defaults: sub-account with the operator role and a strong password.
 */
export async function createUser(
  app: FastifyInstance,
  options: { password?: string; roles?: Array<'unitAdmin' | 'unitOperator' | 'authority'>; isUserSeed?: 0 | 1 } = {},
): Promise<TestUser> {
  const user = { id: newId(), loginName: `t_${randomBytes(4).toString('hex')}`, password: options.password ?? 'Test@2026x', orgCode: DEMO_UNITS.using.orgcode };
  await app.db
    .insertInto('sys_user')
    .values({
      id: user.id,
      unit_id: DEMO_UNITS.using.id,
      login_name: user.loginName,
      name: '测试用户',
      password_hash: await passwordHasher.hash(user.password),
      is_user_seed: options.isUserSeed ?? 0,
      basic_unit_flag: 1,
      office_id: DEMO_UNITS.using.id,
    })
    .execute();
  await app.db
    .insertInto('sys_user_role')
    .values((options.roles ?? ['unitOperator']).map((r) => ({ user_id: user.id, role_id: roleId(r) })))
    .execute();
  return user;
}

export interface UnitUser {
  unitId: string;
  userId: string;
  sid: string;
}

/**
 * A new unit in `areacode` (made in the test's own database, never in the demo seed) with one user
 * holding `role`, logged in; returns its session.
 */
export async function unitUser(app: FastifyInstance, areacode: string, role: 'unitAdmin' | 'unitOperator' | 'authority' = 'unitAdmin'): Promise<UnitUser> {
  const unitId = newId();
  const orgcode = makeUscc(role === 'authority' ? '11' : '91', areacode, randomBytes(4).toString('hex').toUpperCase());
  const loginName = `u_${randomBytes(4).toString('hex')}`;
  const password = 'Test@2026x';
  await app.db
    .insertInto('sys_unit')
    .values({
      id: unitId,
      orgname: `测试单位${loginName}`,
      orgcode,
      areacode,
      address: null,
      contact: null,
      contact_phone: null,
      unit_type: role === 'authority' ? 'authority' : 'use',
      sso_user_id: null,
    })
    .execute();
  const userId = newId();
  await app.db
    .insertInto('sys_user')
    .values({
      id: userId,
      unit_id: unitId,
      login_name: loginName,
      name: `用户${loginName.slice(2, 6)}`,
      password_hash: await passwordHasher.hash(password),
      is_user_seed: 1,
      basic_unit_flag: 0,
      office_id: unitId,
    })
    .execute();
  await app.db
    .insertInto('sys_user_role')
    .values({ user_id: userId, role_id: roleId(role) })
    .execute();
  const reply = await login(app, loginName, password, orgcode);
  if (reply.result !== 'true') throw new Error(`login failed: ${reply.message}`);
  return { unitId, userId, sid: reply.sessionid! };
}

/** Calls a resource operation (`/r/<resource>/<path>`) as a session; returns status and envelope. */
export async function call<T = unknown>(
  app: FastifyInstance,
  sid: string,
  method: 'GET' | 'POST',
  path: string,
  data?: Record<string, unknown>,
): Promise<{ status: number; body: Envelope<T> }> {
  const options: InjectOptions & { url: string } = { method, url: api(path) };
  if (method === 'GET' && data) options.query = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v as string | string[]]));
  else if (data) options.payload = data;
  const res: LightMyRequestResponse = await withSession(app, sid, options);
  return { status: res.statusCode, body: res.json<Envelope<T>>() };
}

/**
 * `post` (status and envelope) and `ok` (the data of a call that must succeed with a message,
 * failing the test with the server's message otherwise) for resource calls on the app `app()` returns.
 */
export function resourceCalls<Default = unknown>(app: () => FastifyInstance) {
  const post = <T = Default>(sid: string, path: string, body: Record<string, unknown> = {}) => call<T>(app(), sid, 'POST', path, body);
  const ok = async <T = Default>(sid: string, path: string, body: Record<string, unknown> = {}) => {
    const { body: envelope } = await post<T>(sid, path, body);
    expect(envelope.message, path).toBeTruthy();
    expect(envelope.result, `${path}: ${envelope.message}`).toBe('true');
    return envelope.data as T;
  };
  return { post, ok };
}

export type UnitSpec = string | readonly [areacode: string, role: 'unitAdmin' | 'unitOperator' | 'authority'];

export interface AppSuiteOptions<S extends string> {
  /** Build options (over makeApp's), or a function giving them when the app is built (after the hooks registered before the suite). */
  build?: BuildOptions | (() => BuildOptions);
  /** New units, each with one logged-in user (unitUser): an area code, or an area code and a role (default unitAdmin). */
  units?: readonly UnitSpec[];
  /** Demo accounts logged in once the app is up, by the name the suite's `session` gives their tokens: `{ unit: 'nbadmin' }`. */
  sessions?: Readonly<Record<S, string>>;
}

export interface AppSuite<S extends string> {
  /** The suite's app (forwards to the one built for the running describe block; only inside tests and hooks). */
  app: FastifyInstance;
  /** The users of `units`, in their order (each forwards like `app`). */
  units: UnitUser[];
  /** The session tokens of `sessions`, by their names: `session.unit` (only inside tests and hooks). */
  session: Readonly<Record<S, string>>;
}

/**
 * One app per describe block, as the e2e `browserSuite` is one browser per file: built on `target`
 * with the demo data before the block's tests (then its `units` made and its `sessions` logged in;
 * any failure fails the hook), and closed after them. Hooks the block registers before calling it
 * run before the build and their after-hooks after the close; those it registers later run after.
 */
export function appSuite<const S extends string = never>(target: DbTarget, options: AppSuiteOptions<S> = {}): AppSuite<S> {
  const opened: { t?: TestApp; units?: UnitUser[]; sid?: Record<S, string> } = {};
  beforeAll(async () => {
    opened.t = await makeApp(target, typeof options.build === 'function' ? options.build() : options.build);
    const units: UnitUser[] = [];
    for (const spec of options.units ?? []) units.push(typeof spec === 'string' ? await unitUser(opened.t.app, spec) : await unitUser(opened.t.app, ...spec));
    opened.units = units;
    const sid = {} as Record<S, string>;
    for (const [name, loginName] of Object.entries(options.sessions ?? {}) as Array<[S, string]>) sid[name] = await sessionOf(opened.t.app, loginName);
    opened.sid = sid;
  });
  afterAll(() => opened.t?.close());
  return {
    app: forwarding(() => opened.t?.app, "the suite's app"),
    units: (options.units ?? []).map((spec, i) => forwarding(() => opened.units?.[i], `the suite's unit ${String(spec)}`)),
    session: forwarding(() => opened.sid, "the suite's sessions"),
  };
}
