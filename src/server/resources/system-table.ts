/**
 * Read-only resources over the server's own tables (resource `systemTable`): a log or trail that a
 * numbered migration made and the server's code alone writes, listed, filtered, sorted, paged,
 * exported and opened like any resource. The engine never writes such a table: operations.ts
 * registers no save, delete, workflow, import or per-record log route for it, the repository's
 * writes refuse it (assertWritable), and ddl.ts is not asked to create or extend it — at start
 * checkSystemTables only confirms that every column a field reads is there.
 *
 * `oversightOnly` resources (scope.ts visibleRows) belong to the oversight role types, each over
 * the rows of its whole area; every other role is refused.
 */
import type { Kysely } from 'kysely';
import { tableColumns } from './ddl';
import type { ResourceModel } from './model';

/** Refuses a write to a system table: its rows are the server's own, never a resource operation's. */
export function assertWritable(model: ResourceModel): void {
  if (model.systemTable) throw new Error(`resource '${model.name}' reads the system table ${model.table}: the engine never writes it`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- system tables are not in the static Database type
type AnyDb = Kysely<any>;

/**
 * The columns every system-table resource reads, checked against the database (tables and views
 * alike): a missing table or column stops the start, naming the resource and the column. Besides its
 * fields' columns each needs `id` and `created_at`: a list's and an export's default order
 * (filters.ts) reads them.
 */
export async function checkSystemTables(db: AnyDb, models: readonly ResourceModel[]): Promise<void> {
  const system = models.filter((m) => m.systemTable);
  if (system.length === 0) return;
  const rows = await tableColumns(
    db,
    system.map((m) => m.table),
  );
  const present = new Set(rows.map((r) => `${r.table_name}.${r.column_name}`));
  const problems = system.flatMap((m) => [
    ...m.fields
      .filter((f) => !present.has(`${m.table}.${f.column}`))
      .map((f) => `resource '${m.name}': field '${f.name}' reads ${m.table}.${f.column}, which does not exist`),
    ...['id', 'created_at']
      .filter((column) => !present.has(`${m.table}.${column}`))
      .map((column) => `resource '${m.name}': the default order reads ${m.table}.${column}, which does not exist`),
  ]);
  if (problems.length > 0) throw new Error(`system tables are made by numbered migrations, not by resources:\n  ${problems.join('\n  ')}`);
}
