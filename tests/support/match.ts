/**
 * Vitest's asymmetric matchers, typed `unknown`. Vitest declares them `any` so that they fit any
 * field of an expected value, and an `any` inside an expected object is what the no-unsafe-*
 * lint rules refuse; `unknown` fits the same places (`toEqual`, `toMatchObject` take any shape).
 * Use `match.stringContaining('…')` where `expect.stringContaining('…')` would go.
 */
import { expect } from 'vitest';

export const match = {
  any: (constructor: unknown): unknown => expect.any(constructor),
  stringContaining: (expected: string): unknown => expect.stringContaining(expected),
  stringMatching: (expected: string | RegExp): unknown => expect.stringMatching(expected),
  objectContaining: (expected: Record<string, unknown>): unknown => expect.objectContaining(expected),
};
