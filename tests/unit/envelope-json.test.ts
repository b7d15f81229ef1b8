import { describe, expect, it } from 'vitest';
import { okEnvelope, okPageJson, page } from '../../src/server/envelope';

describe('okPageJson', () => {
  const list = [{ id: 'a', name: '名称 "引号" \\ 换行\n', n: 1.5, tags: ['x'], file: { id: 'f' }, none: null }];
  it.each([false, true])('is the envelope of page() around a list given as JSON text (countCapped %s)', (capped) => {
    const text = okPageJson(JSON.stringify(list), 100_000, 3, 20, capped);
    expect(JSON.parse(text)).toEqual(okEnvelope(page(list, 100_000, 3, 20, capped)));
  });
  it('takes an empty list', () => {
    expect(JSON.parse(okPageJson('[]', 0, 1, 20))).toEqual(okEnvelope(page([], 0, 1, 20)));
  });
});
