/**
 * The first-screen tutorial (schemas/README.md) as data: its ```json file=<path> blocks, which the
 * unit test compares with the repository and the browser test follows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TUTORIAL = join(ROOT, 'schemas/README.md');

/** The tutorial's file blocks: `path` (with `#routes` for a menu excerpt) → parsed JSON. */
export function tutorialBlocks(text = readFileSync(TUTORIAL, 'utf8')): Map<string, unknown> {
  const blocks = new Map<string, unknown>();
  for (const m of text.matchAll(/```json file=(\S+)\n([\s\S]*?)\n```/g)) blocks.set(m[1], JSON.parse(m[2]));
  return blocks;
}
