/**
 * An attachment linked to a record is also visible to the unit owning that record (an inspection
 * report the authority attaches to a unit's application): `record_unit_id`.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sys_attachment').addColumn('record_unit_id', 'char(32)').execute();
  await db.schema.createIndex('sys_attachment_record_unit_idx').on('sys_attachment').column('record_unit_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sys_attachment').dropColumn('record_unit_id').execute();
}
