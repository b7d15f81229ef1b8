/**
 * Payment orders of the payment sandbox (src/server/domain/online-inspection/payment.ts): one row per order made
 * for a business record (`biz_type` + `biz_id`, e.g. an online inspection application). Amounts in
 * fen. At most one open and at most one paid order per record (partial unique indexes), so
 * concurrent toPay requests or notifications can never open two orders or settle twice.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pay_order')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('order_no', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('biz_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('biz_id', 'char(32)', (c) => c.notNull())
    .addColumn('unit_id', 'char(32)', (c) => c.notNull())
    .addColumn('area_code', 'varchar(12)', (c) => c.notNull())
    .addColumn('channel', 'varchar(20)', (c) => c.notNull())
    .addColumn('amount_fen', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('paid_at', 'timestamptz')
    .addColumn('transaction_id', 'varchar(64)')
    .addColumn('created_by', 'char(32)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('pay_order_biz_idx').on('pay_order').columns(['biz_type', 'biz_id', 'created_at']).execute();
  await sql`CREATE UNIQUE INDEX pay_order_open_uq ON pay_order (biz_type, biz_id) WHERE status = 'open'`.execute(db);
  await sql`CREATE UNIQUE INDEX pay_order_paid_uq ON pay_order (biz_type, biz_id) WHERE status = 'paid'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pay_order').ifExists().execute();
}
