/**
 * The bounds every schema the server compiles gets (src/server/validation/bounds.ts): integers and
 * numbers without a bound of their own get the column-safe defaults (nested schemas too), a query's
 * Infinity is refused, and dates keep to the years 1900–2100.
 */
import { describe, expect, it } from 'vitest';
import { INT4_MAX, INT4_MIN, NUMBER_MAX, withNumberBounds } from '../../src/server/validation/bounds';
import { serverAjv } from '../../src/server/validation/index';
import { pageOffset } from '../../src/server/db/sql';

describe('input bounds', () => {
  it('gives every unbounded integer or number schema the defaults, keeps its own bounds and the original intact', () => {
    const original = {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        m: { type: ['number', 'null'] },
        own: { type: 'integer', minimum: 1, maximum: 5 },
        list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'string' }] } },
        enum: { type: 'integer', enum: [0, 1] },
      },
    };
    const copy = withNumberBounds(original) as typeof original & { properties: Record<string, Record<string, unknown>> };
    expect(copy.properties.n).toEqual({ type: 'integer', minimum: INT4_MIN, maximum: INT4_MAX });
    expect(copy.properties.m).toMatchObject({ minimum: -NUMBER_MAX, maximum: NUMBER_MAX });
    expect(copy.properties.own).toEqual({ type: 'integer', minimum: 1, maximum: 5 });
    expect(copy.properties.list).toMatchObject({ items: { anyOf: [{ type: 'integer', maximum: INT4_MAX }, { type: 'string' }] } });
    expect(copy.properties.enum).toMatchObject({ enum: [0, 1], maximum: INT4_MAX });
    expect(original.properties.n).toEqual({ type: 'integer' });
  });

  it("refuses what a query coerces to Infinity, numbers past a column, and dates outside 1900–2100 in the server's ajv", () => {
    const validate = serverAjv().compile({
      type: 'object',
      properties: { n: { type: 'integer' }, x: { type: 'number' }, d: { type: 'string', format: 'date' }, t: { type: 'string', format: 'date-time' } },
    });
    const ok = (data: Record<string, unknown>) => validate({ ...data });
    for (const n of ['Infinity', '-Infinity', '1e309', '99999999999999999999', '2147483648', 'NaN']) expect(ok({ n }), n).toBe(false);
    for (const x of ['Infinity', '1e16', 1e300]) expect(ok({ x }), String(x)).toBe(false);
    expect(ok({ n: '2147483647', x: '1e15' })).toBe(true);
    for (const d of ['0000-01-01', '1899-12-31', '2101-01-01', '2024-02-30']) expect(ok({ d }), d).toBe(false);
    for (const d of ['1900-01-01', '2100-12-31', '2024-02-29']) expect(ok({ d }), d).toBe(true);
    expect(ok({ t: '0001-01-01T00:00:00Z' })).toBe(false);
    expect(ok({ t: '2100-12-31T23:59:59+08:00' })).toBe(true);
  });

  it('refuses a page offset past a safe integer', () => {
    expect(pageOffset(3, 20)).toBe(40);
    expect(() => pageOffset(1e20, 20)).toThrow();
    expect(() => pageOffset(Infinity, 20)).toThrow();
    expect(() => pageOffset(0, 20)).toThrow();
  });
});
