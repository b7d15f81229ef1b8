import { describe, expect, it } from 'vitest';
import { computeRow, computedValue } from '../../src/schema/compute';
import { ExpressionError, collectIdentifiers, evaluate, holds, parseExpression } from '../../src/schema/expr';
import type { Resource } from '../../src/schema/types';

const run = (source: string, scope: Record<string, unknown> = {}) => evaluate(parseExpression(source), scope);

function errorOf(source: string): { message: string; column: number } {
  try {
    parseExpression(source);
  } catch (error) {
    if (error instanceof ExpressionError) return { message: error.message, column: error.column };
    throw error;
  }
  throw new Error(`'${source}' parsed`);
}

describe('expression evaluation', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['12 / 3 / 2', 2],
    ['7 % 4 + 1', 4],
    ['-2 * 3', -6],
    ['- -2', 2],
    ['1 + 2 < 4', true],
    ['1 < 2 === true', true],
    ['!true || true', true],
    ['!(true || true)', false],
    ['true || false && false', true],
    ['(true || false) && false', false],
    ['1.5 + .5', 2],
    ['2e3', 2000],
  ])('%s = %j', (source, expected) => {
    expect(run(source)).toBe(expected);
  });

  it('reads fields from the scope', () => {
    const scope = { useType: '2', amount: 150, readonly: false };
    expect(holds("useType === '2' && amount > 100", scope)).toBe(true);
    expect(holds("useType === '1' || amount > 200", scope)).toBe(false);
    expect(holds('!readonly', scope)).toBe(true);
  });

  it('compares strictly: a numeric string is not the number', () => {
    expect(holds("code === '2'", { code: 2 })).toBe(false);
    expect(holds('code !== 2', { code: '2' })).toBe(true);
  });

  it('orders numbers, numeric strings as numbers and two strings as strings', () => {
    expect(holds('amount > 100', { amount: '150' })).toBe(true);
    expect(holds("'10' < '9'", {})).toBe(true);
    expect(holds('date >= start', { date: '2026-03-01', start: '2026-01-01' })).toBe(true);
  });

  it('never matches an empty value in an ordering', () => {
    for (const amount of [undefined, null, '', 'abc', true]) {
      expect(holds('amount > -1', { amount })).toBe(false);
      expect(holds('amount <= 0', { amount })).toBe(false);
    }
  });

  it('tests membership with in', () => {
    expect(holds("status in ['A', 'B']", { status: 'B' })).toBe(true);
    expect(holds("status in ['A', 'B']", { status: 'C' })).toBe(false);
    expect(holds("'x' in tags", { tags: ['x', 'y'] })).toBe(true);
    expect(holds("'x' in tags", { tags: 'xyz' })).toBe(false);
    expect(holds('status in []', { status: 'A' })).toBe(false);
  });

  it('reads strings with both quotes and escapes', () => {
    expect(run(`"it's" + ' "ok"'`)).toBe(`it's "ok"`);
    expect(run(String.raw`'a\'b\\c\n'`)).toBe("a'b\\c\n");
    expect(run("'中文'")).toBe('中文');
  });

  it('concatenates with + when either side is a string', () => {
    expect(run("'a' + 1")).toBe('a1');
    expect(run("name + ''", { name: null })).toBe('');
  });

  it('short-circuits && and || like JavaScript', () => {
    expect(run('a && b', { a: 0, b: 1 })).toBe(0);
    expect(run("a || 'default'", { a: '' })).toBe('default');
  });

  it('reads an empty list (no files, no codes) as false, a list with items as true', () => {
    const files = [{ name: '回单.pdf', url: '/f/1' }];
    expect(holds("status === 'unpaid' && payCertificate", { status: 'unpaid', payCertificate: [] })).toBe(false);
    expect(holds("status === 'unpaid' && payCertificate", { status: 'unpaid', payCertificate: files })).toBe(true);
    expect(holds('!payCertificate', { payCertificate: [] })).toBe(true);
    expect(holds('!payCertificate', { payCertificate: files })).toBe(false);
    expect(run("codes ? 'some' : 'none'", { codes: [] })).toBe('none');
    expect(run('a || b', { a: [], b: 'fallback' })).toBe('fallback');
  });

  it('gives unknown names undefined and never reads the prototype chain', () => {
    expect(run('missing')).toBeUndefined();
    expect(run('constructor', {})).toBeUndefined();
    expect(run('toString', { a: 1 })).toBeUndefined();
    expect(run('$mode', { $mode: 'add' })).toBe('add');
  });

  it('has literals for true, false and null', () => {
    expect(run('null')).toBeNull();
    expect(holds('x === null', { x: null })).toBe(true);
  });
});

describe('expression syntax errors', () => {
  it.each([
    ["useType == '2'", "use '===' instead of '=='", 9],
    ["useType != '2'", "use '!==' instead of '!='", 9],
    ["useType = '2'", "assignment is not allowed; use '===' to compare", 9],
    ["a === 'open", 'unterminated string', 7],
    ['a &&', 'expected an expression', 5],
    ['', 'expected an expression', 1],
    ['(a || b', "expected ')' but found end of expression", 8],
    ['a b', "unexpected 'b'", 3],
    ['a # b', "unexpected character '#'", 3],
    ['a.b', "unexpected character '.'", 2],
    ['f(x)', "unexpected '('", 2],
    ['[1, 2', "expected ',' or ']' but found end of expression", 6],
    ['x in [1 2]', "expected ',' or ']' but found '2'", 9],
    ['12abc', "invalid number '12a'", 1],
    ["'a\\q'", "unknown escape '\\q'", 3],
    ['typeof a', "unexpected 'typeof'", 1],
    ['a === )', "unexpected ')'", 7],
  ])('%s: %s at column %i', (source, message, column) => {
    expect(errorOf(source)).toEqual({ message, column });
  });
});

describe('identifiers', () => {
  it('lists every name read, in source order with its index', () => {
    expect(collectIdentifiers(parseExpression("a === 'x' && (b > 1 || !c) && d in [e, 'f', a]"))).toEqual([
      { name: 'a', index: 0 },
      { name: 'b', index: 14 },
      { name: 'c', index: 24 },
      { name: 'd', index: 30 },
      { name: 'e', index: 36 },
      { name: 'a', index: 44 },
    ]);
  });

  it('does not count keywords, strings or numbers', () => {
    expect(collectIdentifiers(parseExpression("true && 'name' !== null && 3 > 2"))).toEqual([]);
  });
});

describe('the conditional operator and computed fields', () => {
  it('picks by the test, binds loosest and nests to the right', () => {
    expect(run("a > 1 ? 'big' : 'small'", { a: 2 })).toBe('big');
    expect(run("a > 1 ? 'big' : 'small'", { a: 0 })).toBe('small');
    expect(run("s >= 60 ? 'major' : s >= 40 ? 'high' : 'low'", { s: 45 })).toBe('high');
    expect(run('a || b ? 1 : 2', { a: false, b: true })).toBe(1);
    expect(run('(a ? 1 : 2) + 10', { a: true })).toBe(11);
    expect(collectIdentifiers(parseExpression('t ? a : b')).map((i) => i.name)).toEqual(['t', 'a', 'b']);
    expect(errorOf('a ? 1')).toMatchObject({ message: "expected ':' but found end of expression" });
  });

  it('computes fields in order, later ones reading earlier ones; a missing input gives null', () => {
    const resource = {
      name: 'sheet',
      table: 'sheet',
      title: '评分表',
      fields: {
        a: { type: 'int', label: 'A' },
        b: { type: 'int', label: 'B' },
        total: { type: 'int', label: '合计', readonly: true, compute: 'a + b' },
        grade: { type: 'string', label: '等级', readonly: true, compute: "total >= 0 ? (total >= 10 ? 'high' : 'low') : null" },
      },
    } as unknown as Resource;
    expect(computeRow(resource, { a: 4, b: 7, total: 999 })).toEqual({ total: 11, grade: 'high' });
    expect(computeRow(resource, { a: 2, b: 3 })).toEqual({ total: 5, grade: 'low' });
    expect(computeRow(resource, { a: 2 })).toEqual({ total: null, grade: null });
    expect(computedValue(parseExpression('1 / 3'), {})).toBe(0.333333);
  });
});
