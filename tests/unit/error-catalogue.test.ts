/**
 * The error catalogue: the core's codes plus those the domain features add with defineErrors, each
 * with a Chinese message and an HTTP status; a code cannot be defined twice.
 */
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/server/domain/index';
import { AppError, defineErrors, errorCatalogue } from '../../src/server/errors';

describe('the error catalogue', () => {
  it('holds the features’ codes beside the core’s, each with a Chinese message', () => {
    expect(FEATURES.length).toBeGreaterThan(2);
    const catalogue = errorCatalogue();
    expect(catalogue.has('RECORD_NOT_FOUND')).toBe(true);
    expect(catalogue.has('FEE_NOT_CONFIGURED')).toBe(true);
    for (const [code, { status, message }] of catalogue) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect([200, 400, 401, 403, 404, 405, 413, 415, 429, 500]).toContain(status);
      expect(message, code).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('makes an AppError of a feature code with its message and status', () => {
    const codes = defineErrors({ TEST_ONLY_REFUSED: { status: 200, message: '测试用的拒绝' } });
    const error = new AppError(codes.TEST_ONLY_REFUSED);
    expect([error.code, error.statusCode, error.message]).toEqual(['TEST_ONLY_REFUSED', 200, '测试用的拒绝']);
  });

  it('refuses a code defined twice and a code never defined', () => {
    expect(() => defineErrors({ RECORD_NOT_FOUND: { status: 200, message: '另一个意思' } })).toThrow(/defined twice/);
    expect(() => new AppError('NO_SUCH_CODE' as never)).toThrow(/not in the catalogue/);
  });
});
