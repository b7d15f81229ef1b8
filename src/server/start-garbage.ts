/**
 * One full garbage collection once the server is ready. A start leaves ~100–170 MB of garbage
 * (the database template read into memory and copied on its way into the embedded database, the
 * resource schemas compiled), and an idle process allocates too little for V8 to collect it: it
 * stayed in the resident set until load arrived (embedded database, fresh data directory: 555 MB
 * RSS idle before, 428 MB after one collection; docs/benchmarks.md). Node only offers `gc` with
 * --expose-gc, so the flag is set for one new context, which hands its `gc` back, and then unset.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Runs a full collection; false when the runtime would not give one. */
export function collectStartGarbage(): boolean {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    if (typeof gc !== 'function') return false;
    (gc as () => void)();
    return true;
  } catch {
    return false;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
