/**
 * Readable application numbers (a field's `serial`): the server numbers each new record in order
 * for the year (SY2026000001, SY2026000002 …), never takes one from a request, keeps it on the
 * next save, and a list finds a record by part of its number.
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets } from './helpers';

type Row = Record<string, unknown> & { id: string; applyNo: string; version: number };

describe.each(dbTargets())('application numbers (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { nbadmin: 'nbadmin' } });
  const year = todayIn().slice(0, 4);
  const body = { registMode: 'regBySets', locationArea: '330212', useStartDate: todayIn(), reason: '投入使用' };

  const save = async (data: Record<string, unknown>) => {
    const { body: envelope } = await call<Row>(app, session.nbadmin, 'POST', '/r/use-regist-apply/save', data);
    expect(envelope.result, envelope.message).toBe('true');
    return envelope.data!;
  };

  it('numbers new records in order, ignoring a number in the body', async () => {
    const first = await save(body);
    const second = await save({ ...body, applyNo: 'SY1999999999' });
    expect(first.applyNo).toBe(`SY${year}000001`);
    expect(second.applyNo).toBe(`SY${year}000002`);
  });

  it('keeps the number when the record is saved again, and finds it by part of it', async () => {
    const row = await save(body);
    const again = await save({ ...body, id: row.id, version: row.version, reason: '改了说明' });
    expect(again.applyNo).toBe(row.applyNo);
    const found = await call<Page<Row>>(app, session.nbadmin, 'POST', '/r/use-regist-apply/list', { applyNo: row.applyNo.slice(-4) });
    expect(found.body.data!.list.map((r) => r.id)).toContain(row.id);
  });
});
