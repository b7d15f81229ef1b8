/**
 * The account tables under PORTAL_CRYPTO=sm with a master key (resources/sealed-fields.ts
 * SEALED_ACCOUNT_COLUMNS): the accounts' mobiles and ID cards, the units' contact phones and the
 * mobile of a declarant's SMS access are stored sealed, never as the number; login, the profile,
 * sub-accounts and their lists, a password reset by SMS code to the account's mobile, a
 * registration and its duplicate check and a declarant's access all still work with the whole
 * value; a start in the standard mode with the master key turns them back into plain text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_API, type AccountDetail, type AccountRow, type AccountSaveResult } from '../../src/shared/accounts';
import { API, type Envelope, type Page } from '../../src/shared/contract';
import { DECLARATION_API, type DeclarationAccess } from '../../src/shared/declaration';
import { DEMO_ACCOUNTS, DEMO_UNITS } from '../../src/server/db/seed';
import { makeUscc } from '../../src/server/db/uscc';
import { maskText } from '../../src/server/resources/mask-patterns';
import { convertSealedFields, SEALED_ACCOUNT_COLUMNS } from '../../src/server/resources/sealed-fields';
import { codeIn, outboxOf } from '../../src/server/services/sms';
import { api, appSuite, call, dbTargets, freshPostgresDatabase, login, makeApp, sessionOf, type DbTarget } from './helpers';

const MASTER_KEY = randomBytes(32);
const SEALED = /^sealed:sm:[A-Za-z0-9+/=]+$/;
const quiet = { info() {}, warn() {} };

/** Every non-empty value of the sealed account columns, raw (what a copy of the database shows). */
async function accountValues(app: FastifyInstance): Promise<{ where: string; value: string }[]> {
  const out: { where: string; value: string }[] = [];
  for (const { table, column } of SEALED_ACCOUNT_COLUMNS) {
    const { rows } = await sql<{ v: string }>`SELECT ${sql.ref(column)} AS v FROM ${sql.table(table)} WHERE ${sql.ref(column)} <> ''`.execute(app.db);
    for (const r of rows) out.push({ where: `${table}.${column}`, value: r.v });
  }
  return out;
}

const demo = (loginName: string) => DEMO_ACCOUNTS.find((a) => a.loginName === loginName)!;

describe.each(dbTargets())('account mobiles and ID cards sealed at rest, PORTAL_CRYPTO=sm (%s)', (target) => {
  const { app, session } = appSuite(target, { build: { crypto: 'sm', masterKey: MASTER_KEY }, sessions: { authority: 'jgadmin', nb: 'nbadmin' } });
  /** The demo accounts' numbers as the seed wrote them, before the start's conversion sealed them. */
  const plain = new Map<string, string>();
  const post = async <T>(path: string, payload: Record<string, unknown> = {}) =>
    (await app.inject({ method: 'POST', url: api(path), payload })).json<{ result: string; code?: string; message?: string; data?: T }>();
  const minutePasses = () => app.db.deleteFrom('sys_rate_counter').execute();
  const lastCode = async (mobile: string) => codeIn((await outboxOf(app.db, mobile))[0]?.text ?? '');
  /** A visitor's upload (applyUpload), as the form's field value. */
  const upload = async (name: string) => {
    const boundary = '----apply';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
      Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await app.inject({
      method: 'POST',
      url: api('/a/stone/common/applyUpload'),
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    return [{ id: res.json<{ data: { id: string } }>().data.id, name }];
  };

  beforeAll(async () => {
    // The test app seeds the demo accounts after its start: a restart's conversion seals them.
    const { rows } = await sql<{ login_name: string; mobile: string }>`SELECT login_name, mobile FROM sys_user WHERE mobile <> ''`.execute(app.db);
    for (const r of rows) plain.set(r.login_name, r.mobile);
    expect(await convertSealedFields(app.db, [], app.config, quiet)).toBeGreaterThan(rows.length - 1);
  });

  it('the demo accounts and units hold no plain mobile or phone; a second conversion changes nothing', async () => {
    const values = await accountValues(app);
    expect(values.length).toBeGreaterThanOrEqual(plain.size + Object.keys(DEMO_UNITS).length);
    for (const v of values) expect(v.value, v.where).toMatch(SEALED);
    const raw = JSON.stringify((await sql`SELECT * FROM sys_user`.execute(app.db)).rows);
    for (const mobile of plain.values()) expect(raw).not.toContain(mobile);
    expect(await convertSealedFields(app.db, [], app.config, quiet)).toBe(0);
  });

  it('login, the profile and the unit show the owner the whole values; a profile change is stored sealed', async () => {
    const reply = await login(app, 'nbadmin', demo('nbadmin').password, demo('nbadmin').orgCode);
    expect(reply.result).toBe('true');
    expect(reply.user!.mobile).toBe(plain.get('nbadmin'));
    const idCard = '330203199001017312';
    const saved = await call(app, session.nb, 'POST', API.updateInfo, {
      name: '宁波管理员',
      identityCard: idCard,
      mobile: '13905747312',
      phone: '0574-88000000',
    });
    expect(saved.body.result).toBe('true');
    const row = (
      await sql<{ mobile: string; id_card: string; phone: string }>`SELECT mobile, id_card, phone FROM sys_user WHERE login_name = 'nbadmin'`.execute(app.db)
    ).rows[0];
    expect(row.mobile).toMatch(SEALED);
    expect(row.id_card).toMatch(SEALED);
    expect(JSON.stringify(row)).not.toContain(idCard);
    const info = (await call<{ user: { mobile: string; idCard: string } }>(app, session.nb, 'GET', API.userInfo)).body.data!;
    expect([info.user.mobile, info.user.idCard]).toEqual(['13905747312', idCard]);
    const unit = (await call<{ contactPhone: string }>(app, session.nb, 'GET', API.unit)).body.data!;
    expect(unit.contactPhone).toBe(DEMO_UNITS.using.contact_phone);
    // A form field filled from the user's mobile gets the number, not its sealed form.
    const commitment = await call<{ id: string }>(app, session.nb, 'POST', '/r/safety-commitment/save', { year: 2031, content: '承诺', principal: '张三' });
    expect(commitment.body.result).toBe('true');
    expect(
      (await call<{ contactMobile: string }>(app, session.nb, 'GET', `/r/safety-commitment/get/${commitment.body.data!.id}`)).body.data!.contactMobile,
    ).toBe('13905747312');
  });

  it('a sub-account is saved sealed; the list shows the mobile masked, the detail whole', async () => {
    const created = await call<AccountSaveResult>(app, session.nb, 'POST', ACCOUNT_API.subSave, {
      loginName: 'nb_sealed_sub',
      name: '加密子账号',
      mobile: '13905740031',
      roleName: '录入员',
      menuIds: ['equipment:elevator', 'equipment:overview'],
    });
    expect(created.body.result).toBe('true');
    const id = created.body.data!.id;
    expect((await sql<{ mobile: string }>`SELECT mobile FROM sys_user WHERE id = ${id}`.execute(app.db)).rows[0].mobile).toMatch(SEALED);
    const list = (await call<Page<AccountRow>>(app, session.nb, 'GET', ACCOUNT_API.subList, { pageSize: '100' })).body.data!.list;
    expect(list.find((r) => r.id === id)?.mobile).toBe('139****0031');
    expect((await call<AccountDetail>(app, session.nb, 'GET', ACCOUNT_API.subGet, { id })).body.data!.mobile).toBe('13905740031');
    const all = (await call<Page<AccountRow>>(app, session.authority, 'GET', ACCOUNT_API.list, { pageSize: '100' })).body.data!.list;
    expect(all.find((r) => r.loginName === 'blsub')?.mobile).toBe(maskText('mobile', plain.get('blsub')!));
    for (const r of all) expect(r.mobile ?? '').not.toMatch(/^sealed:/);
  });

  it('a password reset sends its code to the account’s mobile, opened from the sealed column', async () => {
    await minutePasses();
    const orgcode = DEMO_UNITS.second.orgcode;
    expect((await post('/a/stone/common/smsAuthCode/reset/blsub', { orgcode })).result).toBe('true');
    const code = await lastCode(plain.get('blsub')!);
    expect(code).toMatch(/^\d{6}$/);
    expect((await post('/a/stone/common/passwordRestApplyCheck', { loginName: 'blsub', orgcode, smsCode: code })).data).toEqual({ valid: true });
  });

  it('a registration: the new unit and account are stored sealed, log in, and a second one with the same unit is refused', async () => {
    await minutePasses();
    const form = {
      orgname: '加密注册测试有限公司',
      orgcode: makeUscc('91', '330212', 'MA9W0001'),
      unitType: 'use',
      areacode: '330212',
      address: '宁波市鄞州区测试路9号',
      legalPerson: '王测试',
      legalIdCard: '110101199003070070',
      contact: '李联系',
      contactMobile: '13800009901',
      loginName: 'reg_sealed_1',
      password: 'Reg@2026ok',
    };
    expect((await post(`/a/stone/common/smsAuthCode/register/${form.contactMobile}`)).result).toBe('true');
    const filed = await post<{ id: string }>('/a/stone/common/account/apply', {
      ...form,
      licence: await upload('营业执照.pdf'),
      smsCode: await lastCode(form.contactMobile),
    });
    expect(filed.result).toBe('true');
    const agreed = await call(app, session.authority, 'POST', `/r/account-register-apply/agree/${filed.data!.id}`, {});
    expect(agreed.body.result).toBe('true');
    const stored = (
      await sql<{
        mobile: string;
        contact_phone: string;
      }>`SELECT u.mobile, n.contact_phone FROM sys_user u JOIN sys_unit n ON n.id = u.unit_id WHERE u.login_name = ${form.loginName}`.execute(app.db)
    ).rows[0];
    expect(stored.mobile).toMatch(SEALED);
    expect(stored.contact_phone).toMatch(SEALED);
    const reply = await login(app, form.loginName, form.password, form.orgcode);
    expect(reply.result).toBe('true');
    expect(reply.user!.mobile).toBe(form.contactMobile);
    await minutePasses();
    const again = { ...form, loginName: 'reg_sealed_2', contactMobile: '13800009902' };
    await post(`/a/stone/common/smsAuthCode/register/${again.contactMobile}`);
    expect(
      (await post('/a/stone/common/account/apply', { ...again, licence: await upload('营业执照.pdf'), smsCode: await lastCode(again.contactMobile) })).code,
    ).toBe('REGISTER_UNIT_EXISTS');
  });

  it('a declarant’s SMS access keeps its mobile sealed and still opens its declarations', async () => {
    await minutePasses();
    const mobile = '13905749901';
    expect((await post(DECLARATION_API.smsCode, { mobile })).result).toBe('true');
    const access = (await post<DeclarationAccess>(DECLARATION_API.login, { mobile, code: await lastCode(mobile) })).data!;
    expect(access.mobile).toBe(mobile);
    const rows = (await sql<{ mobile: string }>`SELECT mobile FROM ext_declaration_access`.execute(app.db)).rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.mobile).toMatch(SEALED);
    const list = await app.inject({ method: 'GET', url: api(DECLARATION_API.list), query: { access: access.access } });
    expect(list.json<Envelope>().result).toBe('true');
  });
});

describe.each(dbTargets())('account columns across a switch of mode (%s)', (target: DbTarget) => {
  const scratch = mkdtempSync(join(tmpdir(), 'portal-sealed-accounts-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await dropDatabase?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('sm seals the account columns at start; standard with the master key unseals them', { timeout: 240_000 }, async () => {
    const where =
      target === 'pglite' ? { dataDir: join(scratch, 'pgdata') } : await freshPostgresDatabase().then((d) => ((dropDatabase = d.drop), { databaseUrl: d.url }));
    const start = (crypto: 'standard' | 'sm', masterKey: Buffer | null) => makeApp('pglite', { ...where, crypto, masterKey });
    const mobileOf = async (app: FastifyInstance) =>
      (await sql<{ mobile: string }>`SELECT mobile FROM sys_user WHERE login_name = 'nbadmin'`.execute(app.db)).rows[0].mobile;
    const first = await start('standard', null);
    const mobile = await mobileOf(first.app);
    expect(mobile).toMatch(/^1\d{10}$/);
    await first.close();

    const second = await start('sm', MASTER_KEY);
    expect(await mobileOf(second.app)).toMatch(SEALED);
    const sid = await sessionOf(second.app, 'nbadmin');
    expect((await call<{ user: { mobile: string } }>(second.app, sid, 'GET', API.userInfo)).body.data!.user.mobile).toBe(mobile);
    await second.close();

    const third = await start('standard', MASTER_KEY);
    expect(await mobileOf(third.app)).toBe(mobile);
    for (const v of await accountValues(third.app)) expect(v.value, v.where).not.toMatch(/^sealed:/);
    await third.close();
  });
});
