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
import * as m0011 from './0011_sms_and_applications';
import * as m0012 from './0012_accounts_mobile_upload';
import * as m0013 from './0013_read_marks';
import * as m0014 from './0014_session_epoch';
import * as m0015 from './0015_document_token';
import * as m0017 from './0017_declaration_audit';
import * as m0018 from './0018_password_must_change';
import * as m0019 from './0019_attachment_blob';
import * as m0020 from './0020_session_digest';
import * as m0021 from './0021_link_token';
import * as m0022 from './0022_audit_chain';
import * as m0023 from './0023_audit_log_view';
import * as m0024 from './0024_sealed_account_columns';

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
  '0011_sms_and_applications': m0011,
  '0012_accounts_mobile_upload': m0012,
  '0013_read_marks': m0013,
  '0014_session_epoch': m0014,
  '0015_document_token': m0015,
  '0017_declaration_audit': m0017,
  '0018_password_must_change': m0018,
  '0019_attachment_blob': m0019,
  '0020_session_digest': m0020,
  '0021_link_token': m0021,
  '0022_audit_chain': m0022,
  '0023_audit_log_view': m0023,
  '0024_sealed_account_columns': m0024,
};
