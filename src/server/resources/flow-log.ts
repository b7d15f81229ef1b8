/** The flow log (sys_flow_log): who moved which row from which state to which, when, and why. */
import { sql, type Kysely } from 'kysely';
import type { FlowLogEntry } from '../../shared/contract';
import { newId } from '../db/ids';
import type { Actor } from './scope';

interface FlowLogTable {
  id: string;
  resource: string;
  record_id: string;
  action: string;
  from_state: string | null;
  to_state: string | null;
  opinion: string | null;
  user_id: string;
  user_name: string;
  created_at: Date;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- works inside any transaction
type AnyDb = Kysely<any>;
const flowLog = (db: AnyDb) => db as Kysely<{ sys_flow_log: FlowLogTable }>;

export type { FlowLogEntry };

export interface Transition {
  resource: string;
  recordId: string;
  action: string;
  from: string | null;
  to: string | null;
  opinion?: string | null;
}

export async function writeFlowLog(db: AnyDb, actor: Actor, t: Transition): Promise<void> {
  await flowLog(db)
    .insertInto('sys_flow_log')
    .values({
      id: newId(),
      resource: t.resource,
      record_id: t.recordId,
      action: t.action,
      from_state: t.from,
      to_state: t.to,
      opinion: t.opinion?.trim() || null,
      user_id: actor.userId,
      user_name: actor.userName,
      // clock_timestamp, not now(): two changes in one transaction (save + commit) keep their order.
      created_at: sql<Date>`clock_timestamp()`,
    })
    .execute();
}

/** The log of one row, oldest first. */
export async function readFlowLog(db: AnyDb, resource: string, recordId: string): Promise<FlowLogEntry[]> {
  const rows = await flowLog(db)
    .selectFrom('sys_flow_log')
    .selectAll()
    .where('resource', '=', resource)
    .where('record_id', '=', recordId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    fromState: r.from_state,
    toState: r.to_state,
    opinion: r.opinion,
    userId: r.user_id,
    userName: r.user_name,
    createDate: r.created_at.toISOString(),
  }));
}
