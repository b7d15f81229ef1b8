import { describe, expect, it } from 'vitest';
import { JsonSource } from '../../src/schema/json-source';

const text = '{\n  "a": {\n    "b": [1, "x\\u0041y\\n z"]\n  },\n  "a": 2\n}\n';

describe('JSON source locations', () => {
  const source = new JsonSource(text);

  it('gives 1-based line and column of values and keys', () => {
    expect(source.position(source.offset(['a', 'b', 1]))).toEqual({ line: 3, column: 14 });
    expect(source.position(source.offset(['a', 'b'], 'key'))).toEqual({ line: 3, column: 5 });
  });

  it('falls back to the deepest existing node for a missing property', () => {
    expect(source.position(source.offset(['a', 'missing', 'deeper']))).toEqual({ line: 2, column: 8 });
  });

  it('maps a character of a decoded string onto the source across escapes', () => {
    // decoded "xAy\n z": index 4 is the space after the escaped newline
    expect(source.position(source.offsetInString(['a', 'b', 1], 4))).toEqual({ line: 3, column: 25 });
  });

  it('finds repeated keys', () => {
    expect(source.duplicateKeys().map((d) => ({ key: d.key, ...source.position(d.offset) }))).toEqual([{ key: 'a', line: 5, column: 3 }]);
  });

  it('reports syntax errors with their offsets and keeps no value', () => {
    const broken = new JsonSource('{ "a": 1, }');
    expect(broken.value).toBeUndefined();
    expect(broken.syntaxErrors.map((e) => e.message)).toEqual(['invalid JSON: property name expected', 'invalid JSON: value expected']);
    expect(new JsonSource('{ "a": 1 // no\n}').syntaxErrors.map((e) => e.message)).toEqual(['invalid JSON: invalid comment token']);
  });
});
