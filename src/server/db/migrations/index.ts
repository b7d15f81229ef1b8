/**
 * The numbered migrations, in order. Add a file `NNNN_name.ts` exporting `up` (and `down`) and list
 * it here; the migrator applies pending ones at start, under a lock, so several processes may start
 * at once.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation';
import * as m0002 from './0002_flow_log';
import * as m0003 from './0003_attachments';
import * as m0004 from './0004_app_sequence';
import * as m0005 from './0005_pay_order';
import * as m0006 from './0006_pg_trgm';
import * as m0007 from './0007_attachment_record_owner';
import * as m0008 from './0008_rate_counter';
import * as m0009 from './0009_audit_log';
import * as m0010 from './0010_error_log_client_time';

export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_flow_log': m0002,
  '0003_attachments': m0003,
  '0004_app_sequence': m0004,
  '0005_pay_order': m0005,
  '0006_pg_trgm': m0006,
  '0007_attachment_record_owner': m0007,
  '0008_rate_counter': m0008,
  '0009_audit_log': m0009,
  '0010_error_log_client_time': m0010,
};
