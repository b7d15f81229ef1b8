/**
 * Date bounds of a resource's fields (notBefore / notAfter relative to today, src/schema/
 * requirements.ts) as the server and the form check them, with "today" read from the clock: pinned
 * at the last second of a day in China, at its midnight and at mid-day, so a bound computed with a
 * UTC or machine-zone date shows at once (at 00:00 China time the UTC date is still yesterday).
 */
import { describe, expect, it } from 'vitest';
import supervisionOrder from '../../schemas/resources/supervision-order.json';
import riskAssessment from '../../schemas/resources/risk-assessment.json';
import unitTypeChange from '../../schemas/resources/unit-type-change.json';
import { defaultValues } from '../../src/engine/form/compile';
import { dateBoundFailure, firstFailure } from '../../src/schema/requirements';
import type { Resource } from '../../src/schema/types';
import { addToDate, todayIn } from '../../src/shared/dates';
import { chinaInstants, clockPinnedAt } from '../support/clock';

const order = supervisionOrder as unknown as Resource;
const licence = unitTypeChange as unknown as Resource;
const assessment = riskAssessment as unknown as Resource;

describe.each(chinaInstants())('date bounds at the %s', (_name, instant, today) => {
  clockPinnedAt(instant);
  const yesterday = addToDate(today, -1, 'd');
  const tomorrow = addToDate(today, 1, 'd');

  it("reads today as China's date", () => {
    expect(new Date().getTime()).toBe(instant.getTime());
    expect(todayIn()).toBe(today);
  });

  it('notAfter today: today passes, tomorrow is refused naming 今天', () => {
    const check = (checkDate: string) => dateBoundFailure(order.fields, order.fields.checkDate!, checkDate, { category: 'check', checkDate });
    expect(check(today)).toBeUndefined();
    expect(check(yesterday)).toBeUndefined();
    expect(check(tomorrow)).toBe('检查日期不能晚于今天');
    // A timestamp counts by its date part, as stored.
    expect(check(`${tomorrow}T00:00:00`)).toBe('检查日期不能晚于今天');
  });

  it('notBefore today: today passes, yesterday is refused, in the check a save runs', () => {
    // A record complete but for the bound: the requirements pass, so only the date can fail.
    const record = { category: 'demand', targetCreditCode: '91330212MA2CL8F54L', problem: '问题', basis: '条款', requirement: '要求', inspector: '王建国' };
    const failure = (deadline: string) => firstFailure(order, { ...record, deadline }, { stages: ['save'], dateFields: new Set(['deadline']) });
    expect(failure(today)).toBeUndefined();
    expect(failure(tomorrow)).toBeUndefined();
    expect(failure(yesterday)).toEqual({ field: 'deadline', message: '整改期限不能早于今天' });
  });

  it('another resource, another bound of today: the same day', () => {
    const check = (licenceExpiry: string) => dateBoundFailure(licence.fields, licence.fields.licenceExpiry!, licenceExpiry, {});
    expect(check(today)).toBeUndefined();
    expect(check(yesterday)).toBe('证书有效期至不能早于今天');
  });

  it("a new record's default date is today, and its own bound (not after today) accepts it", () => {
    const { assessDate } = defaultValues(assessment);
    expect(assessDate).toBe(today);
    expect(dateBoundFailure(assessment.fields, assessment.fields.assessDate!, assessDate, { assessDate })).toBeUndefined();
  });

  it('an explicit today still wins over the clock', () => {
    const check = (checkDate: string) => dateBoundFailure(order.fields, order.fields.checkDate!, checkDate, {}, tomorrow);
    expect(check(tomorrow)).toBeUndefined();
  });
});
