/**
 * The reproducible random draw of an inspection plan (双随机): a seeded generator and the draw
 * over candidate lists, with no state beyond its arguments.
 *
 * The generator is SHA-256 in counter mode: block i is SHA-256("<seed>:<i>"), read as eight 32-bit
 * unsigned integers (big-endian) in turn. A number below n comes from one such integer by rejection
 * (integers at or above the largest multiple of n below 2^32 are skipped), so every candidate is
 * equally likely. Units are drawn first, by a partial Fisher–Yates shuffle of the candidate ids in
 * ascending order; then, for each drawn unit in draw order, its officers from the officer ids in
 * ascending order, the same way and from the same stream. Anyone holding the seed and the two
 * ordered candidate lists can redo the draw (`drawPlan`) and compare its digest.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A stream of uniform integers from a seed. */
export interface SeededRandom {
  /** An integer in [0, n), n ≥ 1. */
  below(n: number): number;
}

export function seededRandom(seed: string): SeededRandom {
  let counter = 0;
  let block: Buffer = Buffer.alloc(0);
  let offset = 0;
  const next32 = (): number => {
    if (offset >= block.length) {
      block = createHash('sha256').update(`${seed}:${counter++}`, 'utf8').digest();
      offset = 0;
    }
    const value = block.readUInt32BE(offset);
    offset += 4;
    return value;
  };
  return {
    below(n: number): number {
      if (!Number.isInteger(n) || n < 1) throw new Error(`below(${n}): n must be a positive integer`);
      const limit = Math.floor(0x1_0000_0000 / n) * n;
      for (;;) {
        const value = next32();
        if (value < limit) return value % n;
      }
    },
  };
}

/** `count` distinct items of `items` (all when fewer), in draw order: a partial Fisher–Yates shuffle. */
export function sample<T>(random: SeededRandom, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const take = Math.min(count, pool.length);
  for (let i = 0; i < take; i++) {
    const j = i + random.below(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, take);
}

export interface DrawnCheck {
  unit: string;
  inspectors: string[];
}

export interface Draw {
  checks: DrawnCheck[];
  /** SHA-256 (hex) of the seed and the result, what the plan records to prove it. */
  digest: string;
}

const ascending = (ids: readonly string[]) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Draws `unitCount` of the candidate units and, for each, `perCheck` of the officers. Both lists are
 * ordered by id here, so the caller's order does not matter.
 */
export function drawPlan(seed: string, units: readonly string[], unitCount: number, officers: readonly string[], perCheck: number): Draw {
  const random = seededRandom(seed);
  const drawn = sample(random, ascending(units), unitCount);
  const pool = ascending(officers);
  const checks = drawn.map((unit) => ({ unit, inspectors: sample(random, pool, perCheck) }));
  const digest = createHash('sha256').update(JSON.stringify({ seed, checks }), 'utf8').digest('hex');
  return { checks, digest };
}

/** A fresh seed when the officer typed none: 16 hex digits from the system's secure generator. */
export const newSeed = (): string => randomBytes(8).toString('hex');
