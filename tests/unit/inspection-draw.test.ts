/**
 * The seeded draw of inspection plans (src/server/domain/inspection-plan/draw.ts): a pure function
 * of the seed and the candidate lists (their order given does not matter), distinct picks, every
 * candidate reachable, and a different seed a different draw.
 */
import { describe, expect, it } from 'vitest';
import { drawPlan, sample, seededRandom } from '../../src/server/domain/inspection-plan/draw';

const units = Array.from({ length: 20 }, (_, i) => `u${String(i).padStart(2, '0')}`);
const officers = Array.from({ length: 8 }, (_, i) => `o${i}`);

describe('inspection plan draw', () => {
  it('is the same for the same seed, whatever order the candidates come in', () => {
    const a = drawPlan('seed-1', units, 5, officers, 2);
    const b = drawPlan('seed-1', [...units].reverse(), 5, [...officers].reverse(), 2);
    expect(b).toEqual(a);
    expect(a.checks).toHaveLength(5);
    expect(new Set(a.checks.map((c) => c.unit)).size).toBe(5);
    for (const check of a.checks) expect(new Set(check.inspectors).size).toBe(2);
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for another seed', () => {
    const a = drawPlan('seed-1', units, 5, officers, 2);
    const b = drawPlan('seed-2', units, 5, officers, 2);
    expect(b.checks.map((c) => c.unit)).not.toEqual(a.checks.map((c) => c.unit));
    expect(b.digest).not.toBe(a.digest);
  });

  it('draws all candidates when fewer than asked, and reaches every one', () => {
    expect(
      drawPlan('x', units.slice(0, 3), 10, officers, 1)
        .checks.map((c) => c.unit)
        .sort(),
    ).toEqual(['u00', 'u01', 'u02']);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add(sample(seededRandom(`s${i}`), units, 1)[0]);
    expect(seen.size).toBe(units.length);
  });

  it('gives numbers below n only, roughly evenly', () => {
    const random = seededRandom('even');
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[random.below(3)]++;
    for (const c of counts) expect(c).toBeGreaterThan(850);
    expect(() => random.below(0)).toThrow();
  });
});
