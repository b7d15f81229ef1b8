/**
 * XLSX import of a resource's rows, the counterpart of export.ts:
 *
 *   GET  /r/<resource>/import-template?screen=<list screen id>   the sheet to fill in
 *   POST /r/<resource>/import   multipart: one .xlsx file (field `file`), optional `screen`
 *
 * - Columns: the resource's writable fields except attachments and sub-tables, headed by their
 *   Chinese labels (the labels the export writes; with `screen`, that list screen's column labels
 *   too). A trailing or leading `*` (required mark of the template) is ignored; columns of fields
 *   that are not importable (state, dates, derived fields of an exported file) are skipped; any
 *   other header is an error.
 * - Cells: references take the record's id or its label as the export writes it (looked up among
 *   the records the importer may see; a label shared by several of them asks for the id);
 *   dictionary and area fields take the code or the label, multi-dictionary fields several
 *   separated by 、 or a comma; dates an Excel date or YYYY-MM-DD text; booleans 是/否; numbers a
 *   number cell or numeric text. A blank cell is an absent field, so defaults apply.
 * - Every row becomes a save body and goes through the engine's own insert path (record-save.ts
 *   `saveRecord`: defaults, the ajv + catalogue validation, derive hooks, the caller's unit and
 *   area as owner, the workflow's initial state and flow log), all rows in ONE transaction. Each row
 *   runs under a savepoint so that a refused row does not hide the problems of the rows after it;
 *   when any row (or the header) is wrong the transaction is rolled back — nothing is imported —
 *   and the reply is IMPORT_INVALID with the problems `{ row (Excel row number), field (label),
 *   message }` (the first IMPORT_PROBLEM_LIMIT) and a message naming the first one.
 * - Limits: the file size of attachments (PORTAL_ATTACHMENT_MAX_MB), the .xlsx magic bytes
 *   (PK\x03\x04), at most `config.importMaxRows` data rows (PORTAL_IMPORT_MAX_ROWS).
 * - Only resources that accept imports (src/schema/model.ts `acceptsImport`) have the routes;
 *   the RBAC check is the resource's (`commonOptions`), the workflow `save` roles are checked once
 *   before the file is read.
 */
import multipart from '@fastify/multipart';
import { eachPart } from '../../services/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ListScreen } from '../../../schema/types';
import { AppError, isAppError } from '../../errors';
import { envelopeOf, failureResponses } from '../../../shared/wire';
import { labelSqlOf, type ResourceModel } from '../model';
import { quote } from '../naming';
import { isId } from '../../db/ids';
import { commonOptions, type Operation } from '../operations';
import type { CompiledResource } from '../records';
import { saveRecord } from '../record-save';
import type { AnyDb } from '../repository';
import { actorOf, assertRoleAllowed, assertWriter, visibleRows, type Actor } from '../scope';
import { type ExportSources } from './export';
import { IMPORT_PROBLEM_LIMIT, fieldLabel, importFields, openSheet, readHeader, readRows, sheetPlan, type ImportProblem, type SheetRow } from './sheet';

// Writing

/** The problem of a row that saveRecord refused. */
export function problemOf(model: ResourceModel, row: SheetRow, err: AppError): ImportProblem {
  const named = typeof err.data?.field === 'string' ? model.byName.get(err.data.field) : undefined;
  let field = named ? fieldLabel(named) : '';
  if (!named && err.code === 'DUPLICATE_VALUE') {
    field = importFields(model)
      .filter((f) => f.field.unique && row.body[f.name] !== undefined)
      .map(fieldLabel)
      .join('、');
  }
  return { row: row.row, field, message: err.message };
}

/** `第3行 名称：此项为必填项` */
export const problemText = (p: ImportProblem): string => `第${p.row}行${p.field ? ` ${p.field}` : ''}：${p.message}`;

export function refusal(problems: readonly ImportProblem[]): AppError {
  const first = problemText(problems[0]);
  const message = problems.length > 1 ? `${first}（共${problems.length}处错误，未导入任何数据）` : `${first}（未导入任何数据）`;
  return new AppError('IMPORT_INVALID', message, { problems: problems.slice(0, IMPORT_PROBLEM_LIMIT), total: problems.length });
}

/**
 * Inserts every row through saveRecord in one transaction, each under a savepoint; any problem
 * rolls everything back and throws IMPORT_INVALID. Resolves with the number of rows imported.
 */
export async function insertAll(db: AnyDb, compiled: CompiledResource, request: FastifyRequest, rows: readonly SheetRow[]): Promise<number> {
  const actor = actorOf(request);
  return db.transaction().execute(async (trx) => {
    const problems: ImportProblem[] = [];
    for (const row of rows) {
      if (row.problems.length > 0) {
        problems.push(...row.problems);
        continue;
      }
      await sql`SAVEPOINT import_row`.execute(trx);
      try {
        // Given the transaction, saveRecord runs inside it (db/index.ts inTransaction).
        await saveRecord(trx, compiled, actor, { ...row.body });
        await sql`RELEASE SAVEPOINT import_row`.execute(trx);
      } catch (err) {
        if (!isAppError(err)) throw err;
        await sql`ROLLBACK TO SAVEPOINT import_row`.execute(trx);
        problems.push(problemOf(compiled.model, row, err));
      }
    }
    if (problems.length > 0) throw refusal(problems);
    return rows.length;
  });
}

/**
 * Reference cells holding a label instead of an id (an exported file read back): each label is
 * looked up among the records of the referenced resource the importer may see, one query per
 * reference column. One match becomes its id; several are a problem of the row; none is left for
 * saveRecord to refuse as it refuses a wrong id (不存在或不属于本单位).
 */
export async function resolveRefLabels(db: AnyDb, compiled: CompiledResource, actor: Actor, rows: readonly SheetRow[]): Promise<void> {
  for (const f of importFields(compiled.model)) {
    const target = f.type === 'ref' ? compiled.runtime.models.get(f.field.ref ?? '') : undefined;
    if (!target) continue;
    const labelOf = (row: SheetRow) => {
      const value = row.body[f.name];
      return typeof value === 'string' && value !== '' && !isId(value) ? value : undefined;
    };
    const labels = [...new Set(rows.flatMap((row) => labelOf(row) ?? []))];
    if (labels.length === 0) continue;
    const label = sql.raw(labelSqlOf(target, 'r', true));
    const visible = visibleRows(target, actor);
    const found = await sql<{ id: string; label: string }>`SELECT r.id, ${label} AS label FROM ${sql.raw(`${quote(target.table)} AS r`)}
      WHERE ${label} = ANY(${labels}::text[])${visible ? sql` AND ${visible}` : sql``}`.execute(db);
    const ids = new Map<string, string[]>();
    for (const { id, label: text } of found.rows) ids.set(text, [...(ids.get(text) ?? []), id]);
    for (const row of rows) {
      const text = labelOf(row);
      const matches = text === undefined ? undefined : ids.get(text);
      if (matches?.length === 1) row.body[f.name] = matches[0];
      else if (matches && matches.length > 1)
        row.problems.push({ row: row.row, field: fieldLabel(f), message: `“${text}”对应多条${target.title}记录，请填写编号` });
    }
  }
}

// Routes

export type Input = Record<string, unknown>;
export const asObject = (value: unknown): Input => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : {});

/** The list screen named by `screen` (of this resource), or undefined; another resource's is a bad request. */
export function screenOf(model: ResourceModel, sources: ExportSources, id: unknown): ListScreen | undefined {
  if (id === undefined || id === null || id === '') return undefined;
  const screen = sources.listScreens.get(String(id));
  if (screen?.resource !== model.name) throw new AppError('BAD_REQUEST');
  return screen;
}

export interface Upload {
  name: string;
  bytes: Buffer;
  truncated: boolean;
  fields: Input;
}

/** Reads the multipart request: the first file (later ones are drained) and the fields. */
export async function readUpload(request: FastifyRequest): Promise<Upload | undefined> {
  if (!request.isMultipart()) return undefined;
  const fields: Input = {};
  let upload: Upload | undefined;
  await eachPart(request, async (part) => {
    if (part.type === 'field') {
      fields[part.fieldname] = part.value;
    } else if (upload) {
      part.file.resume();
    } else {
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      upload = { name: part.filename ?? '', bytes: Buffer.concat(chunks), truncated: part.file.truncated, fields };
    }
  });
  return upload;
}

export async function runImport(request: FastifyRequest, reply: FastifyReply, compiled: CompiledResource, sources: ExportSources): Promise<FastifyReply> {
  const { model } = compiled;
  // A role that may not save may not import: refused once, before the file is read (a reader of the area, oversightRead, included).
  assertWriter(model, actorOf(request));
  assertRoleAllowed(model.workflow?.actions.save, actorOf(request));
  const upload = await readUpload(request);
  if (!upload || !upload.name.trim()) throw new AppError('IMPORT_FILE_MISSING');
  const maxMb = request.server.config.attachmentMaxMb;
  if (upload.truncated || upload.bytes.length > Math.floor(maxMb * 1024 * 1024)) throw new AppError('IMPORT_FILE_TOO_LARGE', undefined, { maxMb });
  if (!/\.xlsx$/i.test(upload.name.trim())) throw new AppError('IMPORT_NOT_XLSX');
  const screen = screenOf(model, sources, upload.fields.screen ?? asObject(request.query).screen);

  const sheet = await openSheet(upload.bytes);
  const plan = sheetPlan(model, sources, screen);
  const { columns, problems } = readHeader(sheet, model, plan);
  if (problems.length > 0) throw refusal(problems);
  const rows = readRows(sheet, columns, plan, request.server.config.importMaxRows);
  await resolveRefLabels(request.server.db, compiled, actorOf(request), rows);
  const count = await insertAll(request.server.db, compiled, request, rows);
  return reply.ok({ count }, `成功导入 ${count} 条`);
}

export function importOperation(compiled: CompiledResource, sources: ExportSources): Operation {
  const { model } = compiled;
  return {
    name: 'import',
    takesId: false,
    methods: ['POST'],
    options: {
      ...commonOptions(model),
      schema: {
        tags: [model.name],
        summary: `${model.title}: import the rows of an XLSX file (multipart field file; screen=<list screen id>), all or none`,
        consumes: ['multipart/form-data'],
        response: {
          200: envelopeOf({
            type: 'object',
            additionalProperties: true,
            properties: {
              count: { type: 'integer' },
              total: { type: 'integer' },
              max: { type: 'integer' },
              problems: {
                type: 'array',
                items: { type: 'object', properties: { row: { type: 'integer' }, field: { type: 'string' }, message: { type: 'string' } } },
              },
            },
          }),
          ...failureResponses,
        },
      },
      handler: (request, reply) => runImport(request, reply, compiled, sources),
    },
  };
}

/**
 * Registers the import routes in their own scope with multipart parsing, so no other engine route
 * accepts multipart bodies (as attachments do with theirs).
 */
export async function registerImportRoutes(
  app: FastifyInstance,
  operations: ReadonlyMap<string, Operation>,
  urls: readonly { resource: string; url: string }[],
): Promise<void> {
  if (operations.size === 0) return;
  await app.register(async (scope) => {
    const maxBytes = Math.floor(app.config.attachmentMaxMb * 1024 * 1024);
    await scope.register(multipart, {
      // An over-size file is cut by the parser and refused with the Chinese message.
      throwFileSizeLimit: false,
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 },
    });
    for (const { resource, url } of urls) {
      const op = operations.get(resource)!;
      scope.route({ ...op.options, method: op.methods, url });
    }
  });
}
