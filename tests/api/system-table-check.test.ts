/**
 * The start's check of read-only resources over the server's own tables (system-table.ts): besides
 * the columns of their fields, a list's and an export's default order reads `id` and `created_at`.
 * A table without `created_at` answered every list and export with a 500 (found by the RBAC sweep
 * and the fuzz); the start now stops, naming the resource and the column.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ResourceModel } from '../../src/server/resources/model';
import { checkSystemTables } from '../../src/server/resources/system-table';
import { appSuite, dbTargets } from './helpers';

describe.each(dbTargets())('system-table check (%s)', (target) => {
  const { app } = appSuite(target);
  const model = (table: string) =>
    ({ name: 'kept-figures', table, systemTable: true, fields: [{ name: 'total', column: 'total' }] }) as unknown as ResourceModel;

  it('stops the start for a table without created_at, naming it; passes one that has it', async () => {
    await sql`CREATE TABLE IF NOT EXISTS kept_figures_bare (id char(32) PRIMARY KEY, total integer)`.execute(app.db);
    await sql`CREATE TABLE IF NOT EXISTS kept_figures_dated (id char(32) PRIMARY KEY, total integer, created_at timestamptz NOT NULL DEFAULT now())`.execute(
      app.db,
    );
    await expect(checkSystemTables(app.db, [model('kept_figures_bare')])).rejects.toThrow(
      "resource 'kept-figures': the default order reads kept_figures_bare.created_at, which does not exist",
    );
    await expect(checkSystemTables(app.db, [model('kept_figures_dated')])).resolves.toBeUndefined();
  });
});
