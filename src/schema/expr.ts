/**
 * The expression language of screen files (`when`, `requiredWhen`, `disabledWhen`, row-action
 * conditions): a small, safe subset of JavaScript expressions over field names.
 *
 *   literals     'text' "text" 12 3.5 true false null [a, b]
 *   names        fieldName, $contextVariable
 *   operators    ! -(unary)  * / %  + -  < <= > >= in  === !==  &&  ||  ?:  ( )
 *
 * Truth is JavaScript's, except that an empty list is false: a field with no files or codes reads
 * as not filled (`status === 'unpaid' && payCertificate`: a certificate is uploaded).
 *
 * A tokenizer and a Pratt parser build an AST; `evaluate` walks it. Nothing is ever handed to
 * eval or Function, and names resolve only to the scope's own properties.
 */

export type BinaryOperator = '||' | '&&' | '===' | '!==' | '<' | '<=' | '>' | '>=' | 'in' | '+' | '-' | '*' | '/' | '%';
export type UnaryOperator = '!' | '-';
export type LiteralValue = string | number | boolean | null;

/** A node of the syntax tree; `start` is the 0-based index of its first character. */
export type Expr =
  | { type: 'literal'; value: LiteralValue; start: number }
  | { type: 'identifier'; name: string; start: number }
  | { type: 'array'; items: Expr[]; start: number }
  | { type: 'unary'; operator: UnaryOperator; operand: Expr; start: number }
  | { type: 'binary'; operator: BinaryOperator; left: Expr; right: Expr; start: number }
  | { type: 'conditional'; test: Expr; consequent: Expr; alternate: Expr; start: number };

/** A syntax error; `column` is 1-based within the expression text. */
export class ExpressionError extends Error {
  readonly column: number;
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
    this.name = 'ExpressionError';
    this.column = index + 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Tokenizer

type Token =
  | { kind: 'number'; value: number; start: number; text: string }
  | { kind: 'string'; value: string; start: number; text: string }
  | { kind: 'name'; value: string; start: number; text: string }
  | { kind: 'punct'; value: string; start: number; text: string }
  | { kind: 'end'; value: ''; start: number; text: '' };

const PUNCTUATORS = ['===', '!==', '&&', '||', '<=', '>=', '!', '<', '>', '+', '-', '*', '/', '%', '(', ')', '[', ']', ',', '?', ':'];
/** Operators of JavaScript that the language leaves out on purpose, with the hint shown instead. */
const REJECTED: Record<string, string> = {
  '==': "use '===' instead of '=='",
  '!=': "use '!==' instead of '!='",
  '=': "assignment is not allowed; use '===' to compare",
};
/** Everything the tokenizer recognises as an operator, longest first so `===` wins over `==`. */
const OPERATOR_TEXTS = [...PUNCTUATORS, ...Object.keys(REJECTED)].sort((a, b) => b.length - a.length);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };

const isDigit = (c: string) => c >= '0' && c <= '9';
const isNameStart = (c: string) => /[A-Za-z_$]/.test(c);
const isNamePart = (c: string) => /[A-Za-z0-9_$]/.test(c);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) {
      i++;
    } else if (isDigit(c) || (c === '.' && isDigit(source[i + 1] ?? ''))) {
      const match = /^(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?/.exec(source.slice(i))!;
      const text = match[0];
      if (isNamePart(source[i + text.length] ?? '')) throw new ExpressionError(`invalid number '${text}${source[i + text.length]}'`, i);
      tokens.push({ kind: 'number', value: Number(text), start: i, text });
      i += text.length;
    } else if (c === "'" || c === '"') {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= source.length) throw new ExpressionError('unterminated string', start);
        const ch = source[i];
        if (ch === c) break;
        if (ch === '\\') {
          const escaped = Object.hasOwn(ESCAPES, source[i + 1] ?? '') ? ESCAPES[source[i + 1]] : undefined;
          if (escaped === undefined) throw new ExpressionError(`unknown escape '\\${source[i + 1] ?? ''}'`, i);
          value += escaped;
          i += 2;
        } else {
          value += ch;
          i++;
        }
      }
      i++;
      tokens.push({ kind: 'string', value, start, text: source.slice(start, i) });
    } else if (isNameStart(c)) {
      const start = i;
      while (i < source.length && isNamePart(source[i])) i++;
      const text = source.slice(start, i);
      tokens.push({ kind: 'name', value: text, start, text });
    } else {
      const punct = OPERATOR_TEXTS.find((p) => source.startsWith(p, i));
      if (!punct) throw new ExpressionError(`unexpected character '${c}'`, i);
      if (Object.hasOwn(REJECTED, punct)) throw new ExpressionError(REJECTED[punct], i);
      tokens.push({ kind: 'punct', value: punct, start: i, text: punct });
      i += punct.length;
    }
  }
  tokens.push({ kind: 'end', value: '', start: source.length, text: '' });
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Parser (Pratt): binding power of each infix operator; all are left-associative. The conditional
// `test ? a : b` binds loosest and nests to the right (a ? b : c ? d : e).

const INFIX: ReadonlyMap<string, number> = new Map([
  ['||', 1],
  ['&&', 2],
  ['===', 3],
  ['!==', 3],
  ['<', 4],
  ['<=', 4],
  ['>', 4],
  ['>=', 4],
  ['in', 4],
  ['+', 5],
  ['-', 5],
  ['*', 6],
  ['/', 6],
  ['%', 6],
]);
const PREFIX_POWER = 7;
const KEYWORDS: ReadonlyMap<string, LiteralValue> = new Map([
  ['true', true],
  ['false', false],
  ['null', null],
]);
const RESERVED = new Set(['in', 'undefined', 'this', 'new', 'typeof', 'function', 'return', 'void', 'delete']);

class Parser {
  private position = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    const expr = this.expression(0);
    const next = this.peek();
    if (next.kind !== 'end') throw new ExpressionError(`unexpected ${describe(next)}`, next.start);
    return expr;
  }

  private peek(): Token {
    return this.tokens[this.position];
  }

  private next(): Token {
    return this.tokens[this.position++];
  }

  private expect(punct: string): Token {
    const token = this.next();
    if (token.kind !== 'punct' || token.value !== punct) throw new ExpressionError(`expected '${punct}' but found ${describe(token)}`, token.start);
    return token;
  }

  private expression(minPower: number): Expr {
    let left = this.prefix();
    for (;;) {
      const token = this.peek();
      if (minPower === 0 && token.kind === 'punct' && token.value === '?') {
        this.next();
        const consequent = this.expression(0);
        this.expect(':');
        return { type: 'conditional', test: left, consequent, alternate: this.expression(0), start: left.start };
      }
      const power = token.kind === 'punct' || (token.kind === 'name' && token.value === 'in') ? INFIX.get(token.value) : undefined;
      if (power === undefined || power <= minPower) return left;
      this.next();
      const right = this.expression(power);
      left = { type: 'binary', operator: token.value as BinaryOperator, left, right, start: left.start };
    }
  }

  private prefix(): Expr {
    const token = this.next();
    switch (token.kind) {
      case 'number':
      case 'string':
        return { type: 'literal', value: token.value, start: token.start };
      case 'name':
        if (KEYWORDS.has(token.value)) return { type: 'literal', value: KEYWORDS.get(token.value)!, start: token.start };
        if (RESERVED.has(token.value)) throw new ExpressionError(`unexpected '${token.value}'`, token.start);
        return { type: 'identifier', name: token.value, start: token.start };
      case 'punct':
        if (token.value === '!' || token.value === '-') {
          return { type: 'unary', operator: token.value, operand: this.expression(PREFIX_POWER), start: token.start };
        }
        if (token.value === '(') {
          const inner = this.expression(0);
          this.expect(')');
          return inner;
        }
        if (token.value === '[') return this.array(token.start);
        throw new ExpressionError(`unexpected ${describe(token)}`, token.start);
      case 'end':
        throw new ExpressionError('expected an expression', token.start);
    }
  }

  private array(start: number): Expr {
    const items: Expr[] = [];
    if (this.peek().kind === 'punct' && this.peek().value === ']') {
      this.next();
      return { type: 'array', items, start };
    }
    for (;;) {
      items.push(this.expression(0));
      const token = this.next();
      if (token.kind === 'punct' && token.value === ']') return { type: 'array', items, start };
      if (token.kind !== 'punct' || token.value !== ',') throw new ExpressionError(`expected ',' or ']' but found ${describe(token)}`, token.start);
    }
  }
}

function describe(token: Token): string {
  return token.kind === 'end' ? 'end of expression' : `'${token.text}'`;
}

/** Parses an expression; throws ExpressionError with the column of the problem. */
export function parseExpression(source: string): Expr {
  return new Parser(tokenize(source)).parse();
}

/** Every name the expression reads, in source order (repeats included), with its 0-based index. */
export function collectIdentifiers(expr: Expr): { name: string; index: number }[] {
  switch (expr.type) {
    case 'literal':
      return [];
    case 'identifier':
      return [{ name: expr.name, index: expr.start }];
    case 'array':
      return expr.items.flatMap(collectIdentifiers);
    case 'unary':
      return collectIdentifiers(expr.operand);
    case 'binary':
      return [...collectIdentifiers(expr.left), ...collectIdentifiers(expr.right)];
    case 'conditional':
      return [...collectIdentifiers(expr.test), ...collectIdentifiers(expr.consequent), ...collectIdentifiers(expr.alternate)];
  }
}

// ---------------------------------------------------------------------------------------------
// Evaluator

export type Scope = Readonly<Record<string, unknown>>;

/** JavaScript's truth, an empty list (no files, no codes) being false. */
export const truthy = (value: unknown): boolean => (Array.isArray(value) ? value.length > 0 : Boolean(value));

/** A number, a numeric string as its number, anything else NaN (so comparisons with it are false). */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

function compare(operator: '<' | '<=' | '>' | '>=', left: unknown, right: unknown): boolean {
  const both = typeof left === 'string' && typeof right === 'string';
  const a = both ? left : toNumber(left);
  const b = both ? right : toNumber(right);
  if (!both && (Number.isNaN(a) || Number.isNaN(b))) return false;
  switch (operator) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

function binary(operator: Exclude<BinaryOperator, '&&' | '||'>, left: unknown, right: unknown): unknown {
  switch (operator) {
    case '===':
      return left === right;
    case '!==':
      return left !== right;
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(operator, left, right);
    case 'in':
      return Array.isArray(right) && right.includes(left);
    case '+':
      return typeof left === 'string' || typeof right === 'string' ? `${String(left ?? '')}${String(right ?? '')}` : toNumber(left) + toNumber(right);
    case '-':
      return toNumber(left) - toNumber(right);
    case '*':
      return toNumber(left) * toNumber(right);
    case '/':
      return toNumber(left) / toNumber(right);
    case '%':
      return toNumber(left) % toNumber(right);
  }
}

/**
 * Evaluates a parsed expression. `&&`/`||` short-circuit as in JavaScript; `===` is strict;
 * ordering compares two strings as strings and anything else as numbers (numeric strings count,
 * empty values never match); `x in list` tests membership of an array; `t ? a : b` picks by `t`'s truth.
 */
export function evaluate(expr: Expr, scope: Scope): unknown {
  switch (expr.type) {
    case 'literal':
      return expr.value;
    case 'identifier':
      return Object.hasOwn(scope, expr.name) ? scope[expr.name] : undefined;
    case 'array':
      return expr.items.map((item) => evaluate(item, scope));
    case 'unary':
      return expr.operator === '!' ? !truthy(evaluate(expr.operand, scope)) : -toNumber(evaluate(expr.operand, scope));
    case 'binary': {
      const left = evaluate(expr.left, scope);
      if (expr.operator === '&&') return truthy(left) ? evaluate(expr.right, scope) : left;
      if (expr.operator === '||') return truthy(left) ? left : evaluate(expr.right, scope);
      return binary(expr.operator, left, evaluate(expr.right, scope));
    }
    case 'conditional':
      return evaluate(truthy(evaluate(expr.test, scope)) ? expr.consequent : expr.alternate, scope);
  }
}

/** Parses and evaluates to a boolean: the form of `when`-style conditions. */
export function holds(source: string | Expr, scope: Scope): boolean {
  return truthy(evaluate(typeof source === 'string' ? parseExpression(source) : source, scope));
}
