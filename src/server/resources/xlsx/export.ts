/**
 * XLSX export of a resource: `GET|POST /r/<resource>/export` (and the resource's legacy `export`
 * alias), streamed while it is written.
 *
 * - Rows: exactly what `list` would page through — the same parameters, filters, order, RBAC and
 *   row scope (records.ts `listCriteria`), read through a cursor `EXPORT_BATCH_SIZE` rows at a time
 *   inside one read-only REPEATABLE READ transaction, so the count checked against the cap and
 *   the rows written agree, and memory stays flat however many rows match. Paging is ignored.
 * - Columns: the resource's fields (attachments excepted) with their Chinese labels, or, with
 *   `screen=<id>` naming a list screen of the resource, that screen's columns (label and width
 *   overrides included). Dictionary codes and workflow states are written as their labels, booleans
 *   as 是/否, dates as date cells formatted YYYY-MM-DD.
 * - More rows than `config.exportMaxRows` (PORTAL_EXPORT_MAX_ROWS): EXPORT_TOO_LARGE, before any
 *   byte of the file is sent. A failure after the first byte aborts the download (the client sees
 *   a broken transfer, never a truncated file that looks complete).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { writeSheet } from './sheet-writer';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ColumnItem, ListScreen } from '../../../schema/types';
import { fieldKind } from '../../../schema/kinds';
import { AppError } from '../../errors';
import { envelopeOf, failureResponses } from '../../../shared/wire';
import type { Catalog } from '../catalog';
import { selectSqlOf, type FieldModel, type ResourceModel } from '../model';
import { commonOptions, inputOf, type Operation } from '../operations';
import { listCriteria, type CompiledResource } from '../records';
import { countRows, forEachBatch, type Row } from '../repository';
import { actorOf } from '../scope';

/**
 * Rows fetched from the cursor per round trip: 1,000 keeps the rows and text of a batch short-lived
 * (2,000–5,000 grew the process by 170–280 MB over a 200,000-row export, 1,000 by ~125 MB; no
 * slower on PostgreSQL, npm run bench:export).
 */
export const EXPORT_BATCH_SIZE = 1000;
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What exports need beyond the compiled resources: dictionary labels and the list screens by id. */
export interface ExportSources {
  dictLabels: Catalog['dictLabels'];
  listScreens: ReadonlyMap<string, ListScreen>;
}

/** The list screens under `<schemaDir>/screens` (any depth), by id; other screen kinds are ignored. */
export function loadListScreens(schemaDir: string): Map<string, ListScreen> {
  const dir = join(schemaDir, 'screens');
  const screens = new Map<string, ListScreen>();
  if (!existsSync(dir)) return screens;
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.json'));
  for (const entry of files) {
    const file = join(entry.parentPath, entry.name);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`${file}: ${(err as Error).message}`);
    }
    const value = parsed !== null && typeof parsed === 'object' ? (parsed as Partial<ListScreen> & { kind?: string }) : undefined;
    if (value?.kind === 'list' && typeof value.id === 'string' && typeof value.resource === 'string' && Array.isArray(value.columns))
      screens.set(value.id, value as ListScreen);
  }
  return screens;
}

type CellValue = string | number | Date | null;

/** One column of the sheet: header, width (characters), number format and how a row fills it. */
export interface ExportColumn {
  /** The field the column shows. */
  field: string;
  header: string;
  width: number;
  numFmt?: string;
  value: (row: Row) => CellValue;
}

const DATE_FORMAT = 'yyyy-mm-dd';
const DATETIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
/** Approximate pixels per character of the default font, to carry screen widths over. */
const PIXELS_PER_CHAR = 7;

/** A `YYYY-MM-DD` date as the Excel date of that day. */
const excelDate = (value: string): Date => new Date(`${value}T00:00:00Z`);

/** An ISO instant as an Excel date-time showing the server's wall-clock time (Excel has no zones). */
function excelDateTime(value: string): Date {
  const t = new Date(value);
  return new Date(Date.UTC(t.getFullYear(), t.getMonth(), t.getDate(), t.getHours(), t.getMinutes(), t.getSeconds()));
}

/** File names of an attachment list (`[{ name }]`), joined. */
function attachmentNames(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value
    .map((item) => (item && typeof item === 'object' ? String((item as { name?: unknown }).name ?? '') : ''))
    .filter(Boolean)
    .join('、');
}

/** How a field's stored value becomes a cell: labels for codes and states, typed dates and numbers. */
function cellOf(model: ResourceModel, f: FieldModel, labels: ReadonlyMap<string, string> | undefined): Pick<ExportColumn, 'numFmt' | 'value'> {
  const read = (row: Row) => row[f.name];
  const label = (code: unknown) => labels?.get(String(code)) ?? String(code);
  if (labels && f.kind === 'codes') return { value: (row) => ((read(row) as string[] | null) ?? []).map(label).join('、') };
  if (labels) return { value: (row) => (read(row) == null ? null : label(read(row))) };
  switch (f.kind) {
    case 'boolean':
      return { value: (row) => (read(row) == null ? null : read(row) ? '是' : '否') };
    case 'date':
      return { numFmt: DATE_FORMAT, value: (row) => (read(row) == null ? null : excelDate(read(row) as string)) };
    case 'datetime':
      return { numFmt: DATETIME_FORMAT, value: (row) => (read(row) == null ? null : excelDateTime(read(row) as string)) };
    case 'integer':
    case 'number':
      return { numFmt: fieldKind(f.type).xlsx?.numFmt, value: (row) => (read(row) as number | null) ?? null };
    case 'codes':
      return { value: (row) => ((read(row) as string[] | null) ?? []).join('、') };
    case 'json':
      return { value: (row) => attachmentNames(read(row)) };
    case 'string':
      return { value: (row) => (read(row) as string | null) ?? null };
  }
}

function defaultWidth(f: FieldModel): number {
  const width = fieldKind(f.type).xlsx?.width;
  if (width) return width;
  if (f.kind === 'datetime') return 20;
  if (f.kind === 'date') return 12;
  if (f.kind === 'string' && !f.codes) return 24;
  return 12;
}

/** Labels of the field's codes: its dictionary's, or the workflow's state labels for `status`. */
export function labelsOf(model: ResourceModel, f: FieldModel, dictLabels: ExportSources['dictLabels']): ReadonlyMap<string, string> | undefined {
  if (f.name === 'status' && model.workflow) return new Map(model.workflow.states.map((s) => [s.code, s.label]));
  return f.field.dict === undefined ? undefined : dictLabels.get(f.field.dict);
}

const SYSTEM_COLUMNS = ['status', 'createDate', 'updateDate'];

/** The sheet's columns: the list screen's, or the resource's declared fields (not attachments) with state and dates. */
export function exportColumns(model: ResourceModel, sources: ExportSources, screen?: ListScreen): ExportColumn[] {
  const items: ColumnItem[] = screen
    ? screen.columns.map((c) => (typeof c === 'string' ? { field: c } : c))
    : model.fields.filter((f) => (f.writable && f.kind !== 'json') || SYSTEM_COLUMNS.includes(f.name)).map((f) => ({ field: f.name }));
  return items.flatMap((item) => {
    const f = model.byName.get(item.field);
    if (!f) return []; // the lint reports unknown columns; an export never fails on one
    return [
      {
        field: f.name,
        header: item.label ?? f.label,
        width: item.width ? Math.ceil(item.width / PIXELS_PER_CHAR) : defaultWidth(f),
        ...cellOf(model, f, labelsOf(model, f, sources.dictLabels)),
      },
    ];
  });
}

/** The select list of an export: its columns' fields only, references as their records' labels. */
export const exportSelect = (model: ResourceModel, columns: readonly ExportColumn[], models: ReadonlyMap<string, ResourceModel>): string =>
  selectSqlOf(model, [...new Set(columns.map((c) => c.field))], models) || 'id';

/** `attachment` with an ASCII fallback and the UTF-8 title (RFC 6266 / 5987). */
export function contentDisposition(fallback: string, title: string): string {
  return `attachment; filename="${fallback.replace(/[^\w.-]/g, '_')}.xlsx"; filename*=UTF-8''${encodeURIComponent(`${title}.xlsx`)}`;
}

/** A valid worksheet name: at most 31 characters, none of : \ / ? * [ ]. */
export const sheetName = (title: string) => title.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet1';

class DownloadAborted extends Error {
  constructor() {
    super('the client closed the download');
  }
}

/** Writes the workbook to `out`, pulling rows batch by batch from `eachBatch`. */
async function writeWorkbook(
  out: PassThrough,
  title: string,
  columns: readonly ExportColumn[],
  eachBatch: (onBatch: (rows: Row[]) => Promise<void>) => Promise<void>,
): Promise<void> {
  const sheet = await writeSheet(out, sheetName(title), columns);
  try {
    await eachBatch(async (rows) => {
      await sheet.addRows(rows.map((row) => columns.map((c) => c.value(row))));
      if (out.destroyed) throw new DownloadAborted();
    });
    await sheet.finish();
  } catch (err) {
    sheet.abort();
    throw err;
  }
}

/** Streams the export of `input` as the reply. */
async function sendExport(request: FastifyRequest, reply: FastifyReply, compiled: CompiledResource, sources: ExportSources): Promise<FastifyReply> {
  const { model } = compiled;
  const input = inputOf(request);
  const screen = input.screen === undefined || input.screen === '' ? undefined : sources.listScreens.get(String(input.screen));
  if (input.screen !== undefined && input.screen !== '' && screen?.resource !== model.name) throw new AppError('BAD_REQUEST');
  const { conditions, order } = listCriteria(compiled, actorOf(request), input);
  const columns = exportColumns(model, sources, screen);
  const title = screen?.title ?? model.title;
  const max = request.server.config.exportMaxRows;

  const out = new PassThrough();
  let streaming = false;
  try {
    await request.server.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const count = await countRows(trx, model, conditions);
        if (count > max) throw new AppError('EXPORT_TOO_LARGE', undefined, { count, max });
        reply.header('content-disposition', contentDisposition(model.name, title)).type(XLSX_CONTENT_TYPE).send(out);
        streaming = true;
        await writeWorkbook(out, title, columns, (onBatch) =>
          forEachBatch(trx, model, conditions, order, EXPORT_BATCH_SIZE, onBatch, exportSelect(model, columns, compiled.runtime.models)),
        );
      });
  } catch (err) {
    if (!streaming) throw err;
    if (!(err instanceof DownloadAborted)) request.log.error({ err }, 'export failed while streaming');
    out.destroy(err instanceof DownloadAborted ? undefined : (err as Error));
  }
  return reply;
}

/** The export operation of a resource (registered beside operationsOf's, so legacy aliases bind to it too). */
export function exportOperation(compiled: CompiledResource, sources: ExportSources): Operation {
  const { model } = compiled;
  return {
    name: 'export',
    takesId: false,
    methods: ['GET', 'POST'],
    options: {
      ...commonOptions(model),
      schema: {
        tags: [model.name],
        summary: `${model.title}: export as XLSX (list filters and orderBy; screen=<list screen id> picks its columns)`,
        querystring: compiled.listPlan.paramsSchema,
        response: {
          200: {
            content: {
              [XLSX_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary' } },
              'application/json': { schema: envelopeOf({ type: 'object', properties: { count: { type: 'integer' }, max: { type: 'integer' } } }) },
            },
          },
          ...failureResponses,
        },
      },
      handler: (request, reply) => sendExport(request, reply, compiled, sources),
    },
  };
}
