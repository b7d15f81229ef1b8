/**
 * Personal data masking (field `mask`, src/server/resources/masking.ts) over the demo data: no list
 * or export of any resource shows a whole ID card or mobile number to any demo role; the detail
 * and edit views show the owner the whole value; a save sending the masked text back keeps the
 * stored value; a masked value copied from a reference is saved as the real one; the authority's
 * whole read of another unit's record is written to the audit log. Run in the standard mode and in
 * the 国密 mode with a master key, where the ID card and mobile columns are stored encrypted
 * (src/server/resources/sealed-fields.ts): the same answers, computed in JavaScript.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { MASK_PATTERNS, maskSql, maskText } from '../../src/server/resources/mask-patterns';
import type { Page } from '../../src/shared/contract';
import { workbookText } from '../support/workbook';
import { api, appSuite, call, dbTargets, resourceCalls, withSession } from './helpers';

/** An 18-character ID card number of valid shape (area, birth date, sequence, check character). */
const ID_CARD = /(?<![0-9A-Za-z])\d{6}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![0-9A-Za-z])/g;
/** A mainland mobile number. */
const MOBILE = /(?<![0-9A-Za-z])1[3-9]\d{9}(?![0-9A-Za-z])/g;

const whole = (text: string) => [...(text.match(ID_CARD) ?? []), ...(text.match(MOBILE) ?? [])];

type Row = Record<string, unknown> & { id: string; version?: number };

const MASTER_KEY = randomBytes(32);

describe.each(
  dbTargets().flatMap(
    (t) =>
      [
        [t, 'standard'],
        [t, 'sm'],
      ] as const,
  ),
)('personal data masking (%s, PORTAL_CRYPTO=%s)', (target, crypto) => {
  const build = crypto === 'sm' ? { crypto, masterKey: MASTER_KEY } : {};
  const { app, session } = appSuite(target, { build, sessions: { using: 'nbadmin', second: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  beforeAll(() => seedDemoRecords(app));
  /** A value as stored, opened when the column is encrypted (the sm mode). */
  const plain = (resource: string, stored: string): string => app.resources.get(resource)!.model.cipher?.open(stored) ?? stored;
  const sealedIn = (text: string) => (crypto === 'sm' ? expect(text).toMatch(/^sealed:sm:/) : expect(text).not.toMatch(/^sealed:/));

  const listAll = async (sid: string, resource: string): Promise<{ status: number; text: string; count: number }> => {
    let text = '';
    let count = 0;
    for (let pageNo = 1; ; pageNo++) {
      const res = await withSession(app, sid, { method: 'GET', url: api(`/r/${resource}/list`), query: { pageNo: String(pageNo), pageSize: '100' } });
      if (res.statusCode !== 200) return { status: res.statusCode, text, count };
      const page = res.json<{ data: Page<Row> }>().data;
      text += res.body;
      count += page.list.length;
      if (page.list.length < 100) return { status: 200, text, count };
    }
  };

  it('masks in the database as in JavaScript (change records), every pattern', async () => {
    const samples = [
      '330203199001011234',
      '33020319900101123X',
      '13805740011',
      '0574-87654321',
      '057487654321',
      '86-0574-8765',
      '6222020200112233445',
      '张三丰',
      '张',
      'ab',
      '',
      '1234567',
    ];
    const expected: Record<string, string> = { idCard: '330203********1234', mobile: '138****0011', bankAccount: '***************3445', name: '张**' };
    for (const pattern of MASK_PATTERNS) {
      for (const value of samples) {
        const { rows } = await sql<{ masked: string }>`SELECT ${sql.raw(maskSql(pattern, 'v'))} AS masked FROM (SELECT ${value}::text AS v) AS t`.execute(
          app.db,
        );
        expect(rows[0].masked, `${pattern} ${value}`).toBe(maskText(pattern, value));
      }
    }
    expect(maskText('idCard', samples[0])).toBe(expected.idCard);
    expect(maskText('mobile', samples[2])).toBe(expected.mobile);
    expect(maskText('phone', samples[2])).toBe(expected.mobile);
    expect(maskText('phone', samples[3])).toBe('0574-****4321');
    expect(maskText('bankAccount', samples[6])).toBe(expected.bankAccount);
    expect(maskText('name', samples[7])).toBe(expected.name);
    expect(maskText('mobile', 'ab')).toBe('**');
    expect(maskText('idCard', '')).toBe('');
  });

  it('no list or export of the demo data shows a whole ID card or mobile number to any demo role', async () => {
    const resources = [...app.resources.values()].filter((r) => !r.model.isChild).map((r) => r.model.name);
    let read = 0;
    let masks = 0;
    for (const [who, sid] of Object.entries(session)) {
      for (const resource of resources) {
        const list = await listAll(sid, resource);
        if (list.status !== 200) continue;
        read += list.count;
        masks += (list.text.match(/\d\*{4,}\d/g) ?? []).length;
        expect(whole(list.text), `${who}: ${resource} list`).toEqual([]);
        expect(list.text, `${who}: ${resource} list`).not.toContain('sealed:');
        const file = await withSession(app, sid, { method: 'GET', url: api(`/r/${resource}/export`) });
        if (file.statusCode !== 200) continue;
        const sheet = await workbookText(file.rawPayload);
        expect(whole(sheet), `${who}: ${resource} export`).toEqual([]);
        expect(sheet, `${who}: ${resource} export`).not.toContain('sealed:');
      }
    }
    // The scan saw the demo data and its masks (operators, staff, unit profiles, applications).
    expect(read).toBeGreaterThan(50);
    expect(masks).toBeGreaterThan(20);
  });

  it('the detail and edit view shows the owner the whole value; a masked value sent back keeps the stored one', async () => {
    const operators = (await call<Page<Row>>(app, session.using, 'GET', '/r/operator/list', { pageSize: '1' })).body.data!.list;
    const listed = operators[0];
    expect(listed.idCard).toMatch(/^\d{6}\*{8}[\dX]{4}$/);
    expect(listed.mobile).toMatch(/^1\d{2}\*{4}\d{4}$/);
    const raw = (
      await sql<{
        id_card: string;
        mobile: string;
        mobile__bidx: string | null;
      }>`SELECT id_card, mobile, mobile__bidx FROM operator WHERE id = ${listed.id}`.execute(app.db)
    ).rows[0];
    sealedIn(raw.id_card);
    const stored = { id_card: plain('operator', raw.id_card), mobile: plain('operator', raw.mobile) };
    const detail = await ok(session.using, `/r/operator/get/${listed.id}`);
    expect(detail.idCard).toBe(stored.id_card);
    expect(detail.mobile).toBe(stored.mobile);

    // A form that loaded the masked values (a list row) saves them back: the stored values stay.
    const saved = await ok(session.using, '/r/operator/save', { ...detail, idCard: listed.idCard, mobile: listed.mobile, remark: '复核' });
    expect(saved.idCard).toBe(stored.id_card);
    const after = (await sql<{ id_card: string; mobile: string }>`SELECT id_card, mobile FROM operator WHERE id = ${listed.id}`.execute(app.db)).rows[0];
    expect({ id_card: plain('operator', after.id_card), mobile: plain('operator', after.mobile) }).toEqual(stored);
    // Another text with stars is no masked copy of the stored value: refused by the field's rule, never written.
    const forged = await post(session.using, '/r/operator/save', { ...saved, idCard: `${stored.id_card.slice(0, 6)}********0000` });
    expect(forged.body.result).toBe('false');
    // A changed number is recorded in the audit log masked.
    await ok(session.using, '/r/operator/save', { ...saved, mobile: '13905749876' });
    const log = await ok<{ operation: string; changes: { field: string; from: string; to: string }[] }[]>(session.using, `/r/operator/auditLog/${listed.id}`);
    expect(log[0].changes.find((c) => c.field === 'mobile')).toMatchObject({ from: listed.mobile, to: '139****9876' });
    await sql`UPDATE operator SET mobile = ${raw.mobile}, mobile__bidx = ${raw.mobile__bidx} WHERE id = ${listed.id}`.execute(app.db);
    // Search by the real value still finds the record; the answer shows the mask.
    const found = (await call<Page<Row>>(app, session.using, 'GET', '/r/operator/list', { q: stored.id_card })).body.data!;
    expect(found.list.map((r) => r.id)).toContain(listed.id);
    expect(found.list.find((r) => r.id === listed.id)!.idCard).toBe(listed.idCard);
  });

  it('a certificate copying a masked ID card from its operator stores the real one', async () => {
    const operator = (await call<Page<Row>>(app, session.using, 'GET', '/r/operator/list', { pageSize: '1' })).body.data!.list[0];
    const real = plain('operator', (await sql<{ id_card: string }>`SELECT id_card FROM operator WHERE id = ${operator.id}`.execute(app.db)).rows[0].id_card);
    const base = { operator: operator.id, items: ['A'], issuer: '宁波市市场监督管理局', issueDate: '2024-01-10', expiryDate: '2028-01-09' };
    const copied = await post(session.using, '/r/operator-certificate/save', {
      ...base,
      certNo: `T-MASK-${target}-1`,
      name: operator.name,
      idCard: operator.idCard,
    });
    const omitted = await post(session.using, '/r/operator-certificate/save', { ...base, certNo: `T-MASK-${target}-2` });
    for (const res of [copied, omitted]) {
      expect(res.body.result, res.body.message).toBe('true');
      const id = (res.body.data as Row).id;
      expect(
        plain(
          'operator-certificate',
          (await sql<{ id_card: string }>`SELECT id_card FROM operator_certificate WHERE id = ${id}`.execute(app.db)).rows[0].id_card,
        ),
      ).toBe(real);
    }
  });

  it("another unit's record: masked for other units, whole for the authority its mask names (audited)", async () => {
    const changes = (await call<Page<Row>>(app, session.authority, 'GET', '/r/unit-change/list', { pageSize: '100' })).body.data!.list;
    const change = changes.find((r) => typeof r.contactMobile === 'string' && r.contactMobile !== '');
    expect(change, 'a unit change the authority audits').toBeDefined();
    expect(change!.contactMobile).toMatch(/\*{4}/);
    const raw = (
      await sql<{ contact_mobile: string; unit_id: string }>`SELECT contact_mobile, unit_id FROM unit_change_apply WHERE id = ${change!.id}`.execute(app.db)
    ).rows[0];
    sealedIn(raw.contact_mobile);
    const stored = { ...raw, contact_mobile: plain('unit-change', raw.contact_mobile) };
    const audits = async () =>
      (
        await sql<{
          changes: unknown;
          user_name: string;
        }>`SELECT changes, user_name FROM sys_audit_log WHERE record_id = ${change!.id} AND operation = 'view-unmasked'`.execute(app.db)
      ).rows;
    const before = (await audits()).length;

    const detail = await ok(session.authority, `/r/unit-change/get/${change!.id}`);
    expect(detail.contactMobile).toBe(stored.contact_mobile);
    const rows = await audits();
    expect(rows).toHaveLength(before + 1);
    const fields = (typeof rows[0].changes === 'string' ? JSON.parse(rows[0].changes) : rows[0].changes) as { field: string; from: string; to: string }[];
    expect(fields.map((f) => f.field)).toContain('contactMobile');
    // The entry names the fields, never their values.
    expect(JSON.stringify(fields)).not.toContain(stored.contact_mobile);

    // The owner's own read is not audited.
    const owner = (
      await sql<{
        login_name: string;
      }>`SELECT u.login_name FROM sys_user u WHERE u.unit_id = ${stored.unit_id} AND u.login_name IN ('nbadmin', 'bladmin')`.execute(app.db)
    ).rows[0];
    const ownerSid = owner.login_name === 'nbadmin' ? session.using : session.second;
    expect((await ok(ownerSid, `/r/unit-change/get/${change!.id}`)).contactMobile).toBe(stored.contact_mobile);
    expect(await audits()).toHaveLength(before + 1);
  });
});
