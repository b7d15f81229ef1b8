/**
 * The open calls of registration and password reset (the original API, no session). Every
 * reply about a login name, a credit code or a mobile that the caller has not proven to own (an
 * SMS code) is the same whether it exists or not.
 *
 *   POST smsAuthCode/{purpose}/{target}   a code: register → target is the mobile; query → the
 *        credit code of an application (sent to its contact mobile); reset → the login name, body
 *        `orgcode` (sent to the account's registered mobile). query/reset answer one text always.
 *   POST checkSmsAuthCode                 { purpose, target, orgcode?, code } → { valid } (the
 *        code stays usable; a wrong one counts a try)
 *   POST ogmUnitRegistCheck/{orgcode}/{orgname}/{loginName}      duplicate check of a new application
 *   POST ogmUnitRegistInfoModifyCheck/{organcode}/{usedeptname}  the same for a correction (body id: own application excluded)
 *   POST ModifyCheckUnitInfo/{id}/{operatorMechanismCode}/{operatorMechanism}  the same, id in the path
 *   POST account/apply       the application: fields, password, smsCode (to contactMobile)
 *   POST account/query       { orgcode, smsCode } → the newest application of the code and its audit opinions
 *   POST account/resubmit    a returned application corrected: { id, orgcode, smsCode, ...fields, password? }
 *   POST passwordRestApplyCheck  { loginName, orgcode, smsCode } → { valid: true } or RESET_CHECK_FAILED
 *   POST passwordRestApply       the same plus applicant, reason: files the reset application
 *
 * All under /a/stone/common; per-IP limits on top of the per-mobile ones of services/sms.ts.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isValidPassword, passwordStrength, SIMPLE_PASSWORD_THRESHOLD } from '../../../../validators';
import { firstFailure, irrelevantFields, SAVE_STAGE } from '../../../schema/requirements';
import { failureResponses } from '../../../shared/wire';
import { inTransaction } from '../../db/index';
import { isId } from '../../db/ids';
import { AppError } from '../../errors';
import { readFlowLog } from '../../resources/flow-log';
import { inputOf } from '../../resources/operations';
import type { CompiledResource } from '../../resources/records';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import { findRow } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { assertValid } from '../../resources/validation';
import { insertRecord } from '../../resources/writer';
import { passwordHasher } from '../../services/password';
import { countHit } from '../../services/rate-counter';
import { isMobile, sendQuietly, smsService, SMS_ERRORS } from '../../services/sms';
import { ACCOUNT_APPLY_ERRORS } from './errors';
import { REGISTER, RESET, useSmsForHooks } from './hooks';
import { applyUploadRoutes, claimUploads, uploadIds, VISITOR_ID } from './uploads';
import { columnsOf } from '../../resources/hooks';
import { cipherOf, openValue } from '../../resources/sealed-fields';
import { updateRow } from '../../resources/repository';

const BASE = '/a/stone/common';
/** What a visitor is told after asking for a code it may not learn the target of. */
export const QUIET_SENT = '如信息无误，验证码已发送至登记的手机，5分钟内有效';
/** Open calls per minute per IP (applications, checks, queries). */
const IP_PER_MINUTE = 30;

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const upper = (value: unknown): string => str(value).toUpperCase();

/** The acting "session" of a visitor on an application of `areaCode` (role type visitor: only the resources' visitor actions). */
function visitor(areaCode: string): Actor {
  return { userId: VISITOR_ID, userName: '申请人', unitId: '', areaCode, roleType: 'visitor', menuIds: [], oversees: false };
}

const open = { public: true } as const;
const schema = (summary: string) => ({ summary, tags: ['account-apply'], response: failureResponses });

export const accountApplyRoutes: FastifyPluginAsync = async (app) => {
  const sms = smsService(app);
  useSmsForHooks(sms);
  await app.register(applyUploadRoutes);
  const resource = (name: string): CompiledResource => {
    const r = app.resources.get(name);
    if (!r) throw new Error(`resource '${name}' is not loaded`);
    return r;
  };
  const db = app.db;

  async function perIp(request: FastifyRequest, kind: string, max = IP_PER_MINUTE): Promise<void> {
    const hit = await countHit(db, `open:${kind}:${request.ip}`, 60_000);
    if (hit.count > max) throw new AppError(kind === 'sms' ? SMS_ERRORS.SMS_TOO_FREQUENT : ACCOUNT_APPLY_ERRORS.OPEN_TOO_FREQUENT);
  }

  /** The newest application of a credit code (any state but withdrawn). */
  async function applicationOf(orgcode: string) {
    const { model } = resource(REGISTER);
    if (!orgcode) return undefined;
    const row = await db
      .selectFrom(model.table as never)
      .select(['id' as never])
      .where('orgcode' as never, '=', orgcode as never)
      .where('status' as never, '<>', 'withdrawn' as never)
      .orderBy('created_at' as never, 'desc')
      .executeTakeFirst();
    return row ? findRow(db, model, (row as { id: string }).id, undefined) : undefined;
  }

  /** The account a reset names, when login name and credit code fit (its mobile opened: sealed at rest in sm mode). */
  async function accountOf(loginName: string, orgcode: string) {
    if (!loginName || !orgcode) return undefined;
    const account = await db
      .selectFrom('sys_user as u')
      .innerJoin('sys_unit as n', 'n.id', 'u.unit_id')
      .select(['u.id', 'u.name', 'u.mobile', 'u.login_name', 'n.orgname', 'n.orgcode', 'n.areacode'])
      .where('u.login_name', '=', loginName)
      .where('n.orgcode', '=', orgcode)
      .executeTakeFirst();
    const cipher = cipherOf(app.config);
    return account && cipher ? { ...account, mobile: openValue(cipher, account.mobile) } : account;
  }

  /** The mobile a code of `purpose` goes to, or null when the target is unknown. */
  async function mobileOf(purpose: string, target: string, orgcode: string): Promise<string | null> {
    if (purpose === 'register') return target;
    if (purpose === 'query') return str((await applicationOf(upper(target)))?.contactMobile) || null;
    if (purpose === 'reset') return (await accountOf(target, orgcode))?.mobile ?? null;
    throw new AppError('BAD_REQUEST');
  }

  /** Duplicate checks of an application (the original API ogmUnitRegistCheck and the modify checks); `ownId` is excluded. */
  async function assertUnique(orgcode: string, orgname: string, loginName: string, ownId?: string): Promise<void> {
    const { model } = resource(REGISTER);
    const pending = (column: string, value: string) => {
      let q = db
        .selectFrom(model.table as never)
        .select(['id' as never])
        .where(column as never, '=', value as never)
        .where('status' as never, 'in', ['submitted', 'returned'] as never);
      if (ownId) q = q.where('id' as never, '<>', ownId as never);
      return q.executeTakeFirst();
    };
    if (orgcode && ((await db.selectFrom('sys_unit').select('id').where('orgcode', '=', orgcode).executeTakeFirst()) || (await pending('orgcode', orgcode))))
      throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_UNIT_EXISTS);
    if (orgname && ((await db.selectFrom('sys_unit').select('id').where('orgname', '=', orgname).executeTakeFirst()) || (await pending('orgname', orgname))))
      throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_UNIT_NAME_EXISTS);
    if (
      loginName &&
      ((await db.selectFrom('sys_user').select('id').where('login_name', '=', loginName).executeTakeFirst()) || (await pending('login_name', loginName)))
    )
      throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_LOGIN_EXISTS);
  }

  function assertPassword(password: unknown): string {
    if (typeof password !== 'string' || !isValidPassword(password) || passwordStrength(password) < SIMPLE_PASSWORD_THRESHOLD)
      throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_PASSWORD_WEAK);
    return password;
  }

  /** The application fields of a body, checked like a save of the resource. */
  function applicationBody(input: Record<string, unknown>): Record<string, unknown> {
    const { model, validateInsert } = resource(REGISTER);
    const body: Record<string, unknown> = {};
    for (const f of model.writable) if (f.name in input) body[f.name] = typeof input[f.name] === 'string' ? str(input[f.name]) : input[f.name];
    if (typeof body.orgcode === 'string') body.orgcode = body.orgcode.toUpperCase();
    // Files: only the visitor's own uploads, attached by claimUploads when the application is filed.
    delete body.licence;
    assertValid(model, validateInsert, body);
    // The requirements a save checks (as the form does): fields whose `when` does not hold are
    // stored empty (a using unit gives no licence), requiredWhen and date bounds hold (a maintenance
    // unit's licence number, items and an expiry not passed).
    for (const name of irrelevantFields(model.resource, body)) body[name] = null;
    const failure = firstFailure(model.resource, body, { stages: [SAVE_STAGE], dateFields: new Set(Object.keys(body)) });
    if (failure) throw new AppError('VALIDATION_FAILED', failure.message, { field: failure.field });
    return body;
  }

  app.post(
    `${BASE}/smsAuthCode/:purpose/:target`,
    { config: open, schema: schema('Send an SMS verification code (register: to the mobile; query, reset: to the registered mobile, same reply either way)') },
    async (request, reply) => {
      const { purpose, target } = request.params as { purpose: string; target: string };
      await perIp(request, 'sms', 10);
      if (purpose === 'register') {
        if (!isMobile(target)) throw new AppError(SMS_ERRORS.SMS_MOBILE_INVALID);
        await sms.send('register', target);
        return reply.ok({ message: '验证码已发送，5分钟内有效' });
      }
      if (purpose !== 'query' && purpose !== 'reset') throw new AppError('BAD_REQUEST');
      // Counted by what the caller names, before the lookup: a known and an unknown target are limited alike.
      if ((await countHit(db, `sms:t:${purpose}:${target}:${upper(inputOf(request).orgcode)}`, 60_000)).count > 1)
        throw new AppError(SMS_ERRORS.SMS_TOO_FREQUENT);
      await sendQuietly(sms, purpose, await mobileOf(purpose, target, upper(inputOf(request).orgcode)));
      return reply.ok({ message: QUIET_SENT });
    },
  );

  app.post(`${BASE}/checkSmsAuthCode`, { config: open, schema: schema('Whether an SMS code is right (it stays usable)') }, async (request, reply) => {
    await perIp(request, 'check');
    const input = inputOf(request);
    const purpose = str(input.purpose);
    const mobile = await mobileOf(purpose, str(input.target ?? input.mobile), upper(input.orgcode));
    const valid = mobile ? await sms.check(purpose, mobile, input.code ?? input.smsCode) : false;
    return reply.ok({ valid });
  });

  app.post(
    `${BASE}/ogmUnitRegistCheck/:a/:b/:c`,
    { config: open, schema: schema('Duplicate check of a new registration: credit code, unit name, login name') },
    async (request, reply) => {
      const { a, b, c } = request.params as Record<string, string>;
      await perIp(request, 'check');
      await assertUnique(upper(a), str(b), str(c));
      return reply.ok({ available: true });
    },
  );

  app.post(
    `${BASE}/ogmUnitRegistInfoModifyCheck/:organcode/:usedeptname`,
    { config: open, schema: schema('Duplicate check of a corrected registration (body id: the own application)') },
    async (request, reply) => {
      const { organcode, usedeptname } = request.params as Record<string, string>;
      await perIp(request, 'check');
      const id = inputOf(request).id;
      await assertUnique(upper(organcode), str(usedeptname), '', isId(id) ? id : undefined);
      return reply.ok({ available: true });
    },
  );

  app.post(
    `${BASE}/ModifyCheckUnitInfo/:id/:operatorMechanismCode/:operatorMechanism`,
    { config: open, schema: schema('Duplicate check of a unit correction, the own application excluded') },
    async (request, reply) => {
      const { id, operatorMechanismCode, operatorMechanism } = request.params as Record<string, string>;
      await perIp(request, 'check');
      await assertUnique(upper(operatorMechanismCode), str(operatorMechanism), '', isId(id) ? id : undefined);
      return reply.ok({ available: true });
    },
  );

  app.post(
    `${BASE}/account/apply`,
    { config: open, schema: schema('File an enterprise account application (SMS code to the contact mobile)') },
    async (request, reply) => {
      await perIp(request, 'apply', 10);
      const input = inputOf(request);
      const body = applicationBody(input);
      const password = assertPassword(input.password);
      await assertUnique(str(body.orgcode), str(body.orgname), str(body.loginName));
      if (uploadIds(input.licence).length === 0) throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_LICENCE_MISSING);
      if (!(await sms.verify('register', str(body.contactMobile), input.smsCode))) throw new AppError(SMS_ERRORS.SMS_CODE_INVALID);
      const compiled = resource(REGISTER);
      const hash = await passwordHasher.hash(password);
      const actor = visitor(str(body.areacode));
      const id = await inTransaction(db, async (trx) => {
        const newId = await insertRecord(trx, compiled, actor, body, { owner: { unitId: null, areaCode: str(body.areacode) } });
        await trx.insertInto('sys_register_secret').values({ apply_id: newId, password_hash: hash }).execute();
        const files = await claimUploads(trx, app.config.apiBase, uploadIds(input.licence), newId, str(body.areacode));
        if (!files.length) throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_LICENCE_MISSING);
        await updateRow(trx, compiled.model, newId, columnsOf(compiled.model, { licence: files }));
        return newId;
      });
      const row = await findRow(db, compiled.model, id, undefined);
      return reply.ok({ id, applyNo: row?.applyNo ?? null, status: row?.status ?? 'submitted' });
    },
  );

  /** The application a visitor proved (credit code + SMS code to its contact mobile). */
  async function provenApplication(input: Record<string, unknown>, consume: boolean) {
    const row = await applicationOf(upper(input.orgcode));
    const mobile = str(row?.contactMobile);
    const ok = row && (consume ? await sms.verify('query', mobile, input.smsCode) : await sms.check('query', mobile, input.smsCode));
    if (!row || !ok) throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_QUERY_FAILED);
    return row;
  }

  const publicView = (row: Record<string, unknown>) => {
    const { model } = resource(REGISTER);
    const fields = ['id', 'version', 'status', 'applyNo', ...model.writable.map((f) => f.name), 'createDate', 'updateDate'];
    // Files by name only: their download needs a session of the area.
    const files = Array.isArray(row.licence) ? (row.licence as { id?: string; name?: string }[]).map((f) => ({ id: f.id, name: f.name })) : [];
    return { ...Object.fromEntries(fields.map((f) => [f, row[f] ?? null])), licence: files };
  };

  app.post(`${BASE}/account/query`, { config: open, schema: schema('Progress of a registration by credit code and SMS code') }, async (request, reply) => {
    await perIp(request, 'query');
    const row = await provenApplication(inputOf(request), false);
    const log = await readFlowLog(db, REGISTER, String(row.id));
    return reply.ok({
      application: publicView(row),
      flowLog: log.map((e) => ({ id: e.id, action: e.action, fromState: e.fromState, toState: e.toState, opinion: e.opinion, createDate: e.createDate })),
    });
  });

  app.post(`${BASE}/account/resubmit`, { config: open, schema: schema('Correct a returned registration and submit it again') }, async (request, reply) => {
    await perIp(request, 'apply', 10);
    const input = inputOf(request);
    const stored = await applicationOf(upper(input.orgcode));
    if (!stored || stored.id !== input.id) throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_QUERY_FAILED);
    if (stored.status !== 'returned') throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_NOT_RETURNED);
    const body = applicationBody({ ...publicView(stored), ...input, orgcode: stored.orgcode });
    const password = input.password ? assertPassword(input.password) : null;
    await assertUnique(str(body.orgcode), str(body.orgname), str(body.loginName), String(stored.id));
    await provenApplication(input, true);
    const compiled = resource(REGISTER);
    const actor = visitor(str(stored.areaCode));
    await saveRecord(db, compiled, actor, { ...body, id: stored.id, version: stored.version });
    // Files kept (those of the stored application the form still lists) and new uploads.
    const keep = new Set(uploadIds(input.licence ?? stored.licence));
    const kept = (Array.isArray(stored.licence) ? (stored.licence as { id?: string }[]) : []).filter((f) => f.id && keep.has(f.id));
    const added = await claimUploads(
      db,
      app.config.apiBase,
      [...keep].filter((id) => !kept.some((f) => f.id === id)),
      String(stored.id),
      str(stored.areaCode),
    );
    await updateRow(db, compiled.model, String(stored.id), columnsOf(compiled.model, { licence: [...kept, ...added] }));
    if (password)
      await db
        .updateTable('sys_register_secret')
        .set({ password_hash: await passwordHasher.hash(password) })
        .where('apply_id', '=', String(stored.id))
        .execute();
    const row = await runAction(db, compiled, actor, 'resubmit', stored.id, { extra: {} }, true);
    return reply.ok({ id: stored.id, applyNo: row?.applyNo ?? null, status: row?.status ?? null });
  });

  async function provenAccount(input: Record<string, unknown>, consume: boolean) {
    const account = await accountOf(str(input.loginName), upper(input.orgcode));
    const mobile = account?.mobile ?? '';
    const ok = account && (consume ? await sms.verify('reset', mobile, input.smsCode) : await sms.check('reset', mobile, input.smsCode));
    if (!account || !ok) throw new AppError(ACCOUNT_APPLY_ERRORS.RESET_CHECK_FAILED);
    return account;
  }

  app.post(
    `${BASE}/passwordRestApplyCheck`,
    { config: open, schema: schema('Check login name, credit code and SMS code of a password reset') },
    async (request, reply) => {
      await perIp(request, 'check');
      await provenAccount(inputOf(request), false);
      return reply.ok({ valid: true });
    },
  );

  app.post(`${BASE}/passwordRestApply`, { config: open, schema: schema('File a password reset application') }, async (request, reply) => {
    await perIp(request, 'apply', 10);
    const input = inputOf(request);
    const compiled = resource(RESET);
    const body = { loginName: str(input.loginName), orgcode: upper(input.orgcode), applicant: str(input.applicant), reason: str(input.reason) || null };
    assertValid(compiled.model, compiled.validateInsert, { ...body });
    if (uploadIds(input.identityDoc).length === 0) throw new AppError(ACCOUNT_APPLY_ERRORS.RESET_DOC_MISSING);
    const account = await provenAccount(input, true);
    const actor = visitor(account.areacode);
    const id = await inTransaction(db, async (trx) => {
      const waiting = await trx
        .selectFrom(compiled.model.table as never)
        .select(['id' as never])
        .where('account_id' as never, '=', account.id as never)
        .where('status' as never, '=', 'submitted' as never)
        .executeTakeFirst();
      if (waiting) throw new AppError(ACCOUNT_APPLY_ERRORS.RESET_PENDING);
      const newId = await insertRecord(
        trx,
        compiled,
        actor,
        { ...body, orgname: account.orgname, userName: account.name, mobile: account.mobile, accountId: account.id },
        { trusted: true, owner: { unitId: null, areaCode: account.areacode } },
      );
      const files = await claimUploads(trx, app.config.apiBase, uploadIds(input.identityDoc), newId, account.areacode);
      if (!files.length) throw new AppError(ACCOUNT_APPLY_ERRORS.RESET_DOC_MISSING);
      await updateRow(trx, compiled.model, newId, columnsOf(compiled.model, { identityDoc: files }));
      return newId;
    });
    const row = await findRow(db, compiled.model, id, undefined);
    return reply.ok({ id, applyNo: row?.applyNo ?? null });
  });
};

export type { FastifyInstance };
