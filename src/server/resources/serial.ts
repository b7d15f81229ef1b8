/**
 * Readable numbers of new records (a field's `serial`, e.g. "SY{yyyy}{seq:6}" → SY2026000123):
 * the pattern's text before {seq:N} is rendered for today and counts on its own, so a yearly
 * pattern starts again at 1 each year.
 */
import { todayIn } from '../../shared/dates';
import { nextSequence } from './hooks';
import type { AnyDb } from './repository';

const SEQ = /\{seq:(\d)\}/;

/** The pattern's date tokens filled for `today` (YYYY-MM-DD). */
function withDate(text: string, today: string): string {
  return text
    .replace(/\{yyyy\}/g, today.slice(0, 4))
    .replace(/\{yy\}/g, today.slice(2, 4))
    .replace(/\{mm\}/g, today.slice(5, 7));
}

/** The next number of `pattern` for the field `key` (resource.field), in the transaction. */
export async function nextSerial(trx: AnyDb, key: string, pattern: string, today = todayIn()): Promise<string> {
  const match = SEQ.exec(pattern);
  if (!match) throw new Error(`serial pattern '${pattern}' has no {seq:N}`);
  const prefix = withDate(pattern.slice(0, match.index), today);
  const suffix = withDate(pattern.slice(match.index + match[0].length), today);
  const value = await nextSequence(trx, `serial:${key}:${prefix}`);
  return `${prefix}${String(value).padStart(Number(match[1]), '0')}${suffix}`;
}
