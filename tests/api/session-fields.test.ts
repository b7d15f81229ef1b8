/**
 * Fields filled from the session (`session` in the resource): a new record takes the user's own
 * unit and user values when the body leaves them out; a readonly one is always the user's own,
 * whatever the body says; each unit gets its own values.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { todayIn } from '../../src/shared/dates';
import { appSuite, call, dbTargets, sessionOf } from './helpers';

type Row = Record<string, unknown> & { id: string };

describe.each(dbTargets())('fields from the session (%s)', (target) => {
  const { app } = appSuite(target);
  const base = { registMode: 'regBySets', locationArea: '330212', useStartDate: todayIn(), reason: '投入使用' };

  const save = async (loginName: string, body: Record<string, unknown>) => {
    const { body: envelope } = await call<Row>(app, await sessionOf(app, loginName), 'POST', '/r/use-regist-apply/save', body);
    expect(envelope.result, envelope.message).toBe('true');
    return envelope.data!;
  };

  it('fills a new record with the unit and the user when the body leaves them out', async () => {
    const row = await save('nbadmin', base);
    expect(row).toMatchObject({
      useUnitName: DEMO_UNITS.using.orgname,
      useUnitCreditCode: DEMO_UNITS.using.orgcode,
      useUnitAddress: DEMO_UNITS.using.address,
      contactPerson: '张伟',
      contactMobile: '13805740001',
    });
  });

  it('keeps what the user typed in an editable one, but never takes a readonly one from the body', async () => {
    const row = await save('nbadmin', { ...base, useUnitName: '宁波甬江特种设备使用有限公司（二分厂）', useUnitCreditCode: DEMO_UNITS.second.orgcode });
    expect(row.useUnitName).toBe('宁波甬江特种设备使用有限公司（二分厂）');
    expect(row.useUnitCreditCode).toBe(DEMO_UNITS.using.orgcode);
  });

  it('gives each unit its own values', async () => {
    const row = await save('bladmin', base);
    expect([row.useUnitName, row.useUnitCreditCode, row.contactPerson]).toEqual([DEMO_UNITS.second.orgname, DEMO_UNITS.second.orgcode, '周敏']);
  });
});
