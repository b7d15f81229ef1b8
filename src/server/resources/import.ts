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
 * - Cells: dictionary and area fields take the code or the label, multi-dictionary fields several
 *   separated by 、 or a comma; dates an Excel date or YYYY-MM-DD text; booleans 是/否; numbers a
 *   number cell or numeric text. A blank cell is an absent field, so defaults apply.
 * - Every row becomes a save body and goes through the engine's own insert path (records.ts
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
import type ExcelJS from 'exceljs';
import { loadExcel } from './excel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ListScreen } from '../../schema/types';
import { AppError, isAppError } from '../errors';
import { envelopeOf, failureResponses } from '../routes/schemas';
import { XLSX_CONTENT_TYPE, contentDisposition, labelsOf, sheetName, type ExportSources } from './export';
import type { FieldModel, ResourceModel } from './model';
import { commonOptions, type Operation } from './operations';
import { saveRecord, type CompiledResource } from './records';
import type { AnyDb } from './repository';
import { actorOf, assertRoleAllowed } from './scope';

/** Problems listed in a refused import's reply (the total is reported too). */
export const IMPORT_PROBLEM_LIMIT = 100;
/** Every .xlsx file is a zip archive: it starts with a local file header. */
const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** The template's notes sheet. */
export const NOTES_SHEET = '说明';

const REQUIRED = '此项为必填项';

/** One problem of a refused import: the Excel row (1 = header), the column's label, a Chinese message. */
export interface ImportProblem {
  row: number;
  field: string;
  message: string;
}

/** The fields a sheet may fill: the writable ones, attachments excepted (sub-tables are not fields of the model). */
export function importFields(model: ResourceModel): FieldModel[] {
  return model.writable.filter((f) => f.kind !== 'json');
}

/** A header as compared: no blanks, no required mark, ASCII parentheses. */
const normalHeader = (text: string) => text.replace(/[\s*＊]/g, '').replace(/（/g, '(').replace(/）/g, ')');

/** The label the template and the problems use for a field. */
const fieldLabel = (f: FieldModel) => f.label;

// ---------------------------------------------------------------------------------------------
// Cells

type Plain = string | number | boolean | Date | null;

/** A cell's value without exceljs's wrappers (rich text, formulas, hyperlinks); undefined for an error cell. */
function plainValue(value: ExcelJS.CellValue): Plain | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('error' in value) return undefined;
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (result === undefined || result === null) return null;
    if (typeof result === 'object' && !(result instanceof Date)) return undefined; // an error result
    return result as Plain;
  }
  if ('hyperlink' in value) return String((value as { text?: unknown }).text ?? value.hyperlink);
  return null;
}

const isBlank = (value: Plain | undefined) => value === null || (typeof value === 'string' && value.trim() === '');

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of y/m/d, or undefined when that day does not exist. */
function isoDate(y: number, m: number, d: number): string | undefined {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
}

/** Days between Excel's epoch (1899-12-30) and 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25569;
const DAY_MS = 86_400_000;

/** An Excel date cell (exceljs: the day at UTC midnight), a serial number, or text as `YYYY-MM-DD`. */
function toDate(value: Plain): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : isoDate(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
  if (typeof value === 'number') {
    if (value < 1 || value > 2_958_465) return undefined; // 1900-01-01 .. 9999-12-31
    const t = new Date(Math.round((value - EXCEL_EPOCH_DAYS) * DAY_MS));
    return isoDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
  }
  const match = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(String(value).trim());
  return match ? isoDate(Number(match[1]), Number(match[2]), Number(match[3])) : undefined;
}

/**
 * An Excel date-time (wall-clock time of the server, as the export writes it) or text
 * `YYYY-MM-DD HH:mm[:ss]`, as an ISO instant.
 */
function toDateTime(value: Plain): string | undefined {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    return new Date(value.getUTCFullYear(), value.getUTCMonth(), value.getUTCDate(), value.getUTCHours(), value.getUTCMinutes(), value.getUTCSeconds()).toISOString();
  }
  const match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(String(value).trim());
  if (!match) return undefined;
  const [y, m, d, h = '0', mi = '0', s = '0'] = match.slice(1);
  if (!isoDate(Number(y), Number(m), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  return new Date(Number(y), Number(m) - 1, Number(d), Number(h), Number(mi), Number(s)).toISOString();
}

function toNumber(value: Plain): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/,/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return undefined;
  return Number(text);
}

const TRUE_TEXT = new Set(['是', 'y', 'yes', 'true', '1', '√']);
const FALSE_TEXT = new Set(['否', 'n', 'no', 'false', '0', '×']);

function toBoolean(value: Plain): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (TRUE_TEXT.has(text)) return true;
  if (FALSE_TEXT.has(text)) return false;
  return undefined;
}

/** Text of a cell for a text field: numbers without exponent, dates as YYYY-MM-DD. */
function toText(value: Plain): string {
  if (value instanceof Date) return toDate(value) ?? '';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) >= 1e21 ? BigInt(value).toString() : String(value);
  if (typeof value === 'boolean') return value ? '是' : '否';
  return String(value).trim();
}

/** Code of a dictionary entry given as its code or its label; an error message otherwise. */
interface CodeLookup {
  codes: ReadonlySet<string>;
  /** Label → codes (a label may name several entries of a tree). */
  byLabel: ReadonlyMap<string, readonly string[]>;
}

function lookupOf(f: FieldModel, labels: ReadonlyMap<string, string> | undefined): CodeLookup {
  const byLabel = new Map<string, string[]>();
  for (const [code, label] of labels ?? []) byLabel.set(label, [...(byLabel.get(label) ?? []), code]);
  return { codes: new Set(f.codes ?? []), byLabel };
}

function toCode(text: string, lookup: CodeLookup): { code: string } | { error: string } {
  if (lookup.codes.has(text)) return { code: text };
  const codes = lookup.byLabel.get(text);
  if (codes?.length === 1) return { code: codes[0] };
  if (codes && codes.length > 1) return { error: `“${text}”对应多个选项，请填写代码` };
  return { error: `“${text}”不是有效的选项，请填写代码或名称（见“${NOTES_SHEET}”工作表）` };
}

type Parsed = { value: unknown } | { error: string };

/** The body value of one non-blank cell of a field. */
function parseCell(f: FieldModel, value: Plain, lookup: CodeLookup | undefined): Parsed {
  switch (f.kind) {
    case 'string': {
      const text = toText(value);
      if (!lookup) return { value: text };
      const found = toCode(text, lookup);
      return 'error' in found ? found : { value: found.code };
    }
    case 'codes': {
      const parts = toText(value).split(/[、,，;；\n]+/).map((p) => p.trim()).filter(Boolean);
      const codes: string[] = [];
      for (const part of parts) {
        const found = lookup ? toCode(part, lookup) : { code: part };
        if ('error' in found) return found;
        codes.push(found.code);
      }
      return { value: codes };
    }
    case 'integer':
    case 'number': {
      const n = toNumber(value);
      if (n === undefined) return { error: f.kind === 'integer' ? '请填写整数' : '请填写数字' };
      return { value: n };
    }
    case 'boolean': {
      const b = toBoolean(value);
      return b === undefined ? { error: '请填写“是”或“否”' } : { value: b };
    }
    case 'date': {
      const d = toDate(value);
      return d === undefined ? { error: '请填写有效的日期，格式为 YYYY-MM-DD' } : { value: d };
    }
    case 'datetime': {
      const d = toDateTime(value);
      return d === undefined ? { error: '请填写有效的日期时间，格式为 YYYY-MM-DD HH:mm:ss' } : { value: d };
    }
    case 'json':
      return { value: undefined };
  }
}

// ---------------------------------------------------------------------------------------------
// The sheet

/** One importable column of the uploaded sheet. */
interface SheetColumn {
  index: number;
  field: FieldModel;
}

/** One data row as a save body, or the problems that kept it from becoming one. */
interface SheetRow {
  row: number;
  body: Record<string, unknown>;
  problems: ImportProblem[];
}

/** How a resource's sheet is read: header labels → fields, and the code lookups of coded fields. */
interface SheetPlan {
  byHeader: ReadonlyMap<string, FieldModel>;
  /** Headers of columns that exist but are not imported (readonly and system fields, attachments). */
  ignored: ReadonlySet<string>;
  lookups: ReadonlyMap<string, CodeLookup>;
}

function sheetPlan(model: ResourceModel, sources: ExportSources, screen: ListScreen | undefined): SheetPlan {
  const fields = importFields(model);
  const byHeader = new Map<string, FieldModel>();
  for (const f of fields) {
    byHeader.set(normalHeader(f.label), f);
    byHeader.set(normalHeader(f.name), f);
  }
  const ignored = new Set<string>(model.fields.filter((f) => !byHeader.has(normalHeader(f.label))).map((f) => normalHeader(f.label)));
  for (const child of model.children) ignored.add(normalHeader(child.label));
  for (const column of screen?.columns ?? []) {
    if (typeof column === 'string' || !column.label) continue;
    const f = model.byName.get(column.field);
    if (f && fields.includes(f)) byHeader.set(normalHeader(column.label), f);
    else ignored.add(normalHeader(column.label));
  }
  const lookups = new Map<string, CodeLookup>();
  for (const f of fields) if (f.codes) lookups.set(f.name, lookupOf(f, labelsOf(model, f, sources.dictLabels)));
  return { byHeader, ignored, lookups };
}

/** Reads the header row: the importable columns, or the problems of the header. */
function readHeader(sheet: ExcelJS.Worksheet, model: ResourceModel, plan: SheetPlan): { columns: SheetColumn[]; problems: ImportProblem[] } {
  const columns: SheetColumn[] = [];
  const problems: ImportProblem[] = [];
  const seen = new Set<FieldModel>();
  const header = sheet.getRow(1);
  for (let index = 1; index <= header.cellCount; index++) {
    const raw = plainValue(header.getCell(index).value);
    if (raw === undefined || isBlank(raw)) continue;
    const text = toText(raw);
    const key = normalHeader(text);
    const f = plan.byHeader.get(key);
    if (!f) {
      if (!plan.ignored.has(key)) problems.push({ row: 1, field: text, message: '不是可导入的列，请使用导入模板' });
      continue;
    }
    if (seen.has(f)) {
      problems.push({ row: 1, field: fieldLabel(f), message: '该列重复出现' });
      continue;
    }
    seen.add(f);
    columns.push({ index, field: f });
  }
  for (const f of importFields(model)) {
    if (f.field.required && f.field.default === undefined && !seen.has(f)) problems.push({ row: 1, field: fieldLabel(f), message: '缺少必填列' });
  }
  if (columns.length === 0 && problems.length === 0) problems.push({ row: 1, field: '表头', message: '未找到可导入的列，请使用导入模板' });
  return { columns, problems };
}

/** A data row as a save body; blank rows are undefined. */
function readRow(row: ExcelJS.Row, columns: readonly SheetColumn[], plan: SheetPlan): SheetRow | undefined {
  const body: Record<string, unknown> = {};
  const problems: ImportProblem[] = [];
  let blank = true;
  for (const { index, field } of columns) {
    const value = plainValue(row.getCell(index).value);
    if (value === undefined) {
      blank = false;
      problems.push({ row: row.number, field: fieldLabel(field), message: '单元格内容有误（公式错误）' });
      continue;
    }
    if (isBlank(value)) continue;
    blank = false;
    const parsed = parseCell(field, value, plan.lookups.get(field.name));
    if ('error' in parsed) problems.push({ row: row.number, field: fieldLabel(field), message: parsed.error });
    else if (parsed.value !== undefined) body[field.name] = parsed.value;
  }
  if (blank) return undefined;
  // Required and blank: said here in the words of the form; the ajv check would say the same.
  for (const { field } of columns) {
    if (field.field.required && field.field.default === undefined && !(field.name in body) && !problems.some((p) => p.field === fieldLabel(field))) {
      problems.push({ row: row.number, field: fieldLabel(field), message: REQUIRED });
    }
  }
  return { row: row.number, body, problems };
}

/** Opens the first worksheet of an .xlsx file; IMPORT_NOT_XLSX when it is none. */
async function openSheet(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  if (bytes.length < XLSX_MAGIC.length || !bytes.subarray(0, XLSX_MAGIC.length).equals(XLSX_MAGIC)) throw new AppError('IMPORT_NOT_XLSX');
  const workbook = new (await loadExcel()).Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new AppError('IMPORT_NOT_XLSX');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new AppError('IMPORT_NOT_XLSX');
  return sheet;
}

/** The data rows of a sheet, at most `max` (IMPORT_TOO_MANY_ROWS beyond, IMPORT_EMPTY for none). */
function readRows(sheet: ExcelJS.Worksheet, columns: readonly SheetColumn[], plan: SheetPlan, max: number): SheetRow[] {
  const rows: SheetRow[] = [];
  let count = 0;
  for (let n = 2; n <= sheet.rowCount; n++) {
    const row = sheet.findRow(n);
    const read = row && readRow(row, columns, plan);
    if (!read) continue;
    count++;
    if (count > max) {
      // Count the rest without converting them, for the message.
      for (let m = n + 1; m <= sheet.rowCount; m++) if (sheet.findRow(m)?.hasValues) count++;
      throw new AppError('IMPORT_TOO_MANY_ROWS', `单次最多导入${max}行数据（文件中有${count}行），请分批导入`, { count, max });
    }
    rows.push(read);
  }
  if (rows.length === 0) throw new AppError('IMPORT_EMPTY');
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The problem of a row that saveRecord refused. */
function problemOf(model: ResourceModel, row: SheetRow, err: AppError): ImportProblem {
  const named = typeof err.data?.field === 'string' ? model.byName.get(err.data.field) : undefined;
  let field = named ? fieldLabel(named) : '';
  if (!named && err.code === 'DUPLICATE_VALUE') {
    field = importFields(model).filter((f) => f.field.unique && row.body[f.name] !== undefined).map(fieldLabel).join('、');
  }
  return { row: row.row, field, message: err.message };
}

/** `第3行 名称：此项为必填项` */
export const problemText = (p: ImportProblem): string => `第${p.row}行${p.field ? ` ${p.field}` : ''}：${p.message}`;

function refusal(problems: readonly ImportProblem[]): AppError {
  const first = problemText(problems[0]);
  const message = problems.length > 1 ? `${first}（共${problems.length}处错误，未导入任何数据）` : `${first}（未导入任何数据）`;
  return new AppError('IMPORT_INVALID', message, { problems: problems.slice(0, IMPORT_PROBLEM_LIMIT), total: problems.length });
}

/**
 * Inserts every row through saveRecord in one transaction, each under a savepoint; any problem
 * rolls everything back and throws IMPORT_INVALID. Resolves with the number of rows imported.
 */
async function insertAll(db: AnyDb, compiled: CompiledResource, request: FastifyRequest, rows: readonly SheetRow[]): Promise<number> {
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

// ---------------------------------------------------------------------------------------------
// Routes

type Input = Record<string, unknown>;
const asObject = (value: unknown): Input => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : {});

/** The list screen named by `screen` (of this resource), or undefined; another resource's is a bad request. */
function screenOf(model: ResourceModel, sources: ExportSources, id: unknown): ListScreen | undefined {
  if (id === undefined || id === null || id === '') return undefined;
  const screen = sources.listScreens.get(String(id));
  if (screen?.resource !== model.name) throw new AppError('BAD_REQUEST');
  return screen;
}

interface Upload {
  name: string;
  bytes: Buffer;
  truncated: boolean;
  fields: Input;
}

/** Reads the multipart request: the first file (later ones are drained) and the fields. */
async function readUpload(request: FastifyRequest): Promise<Upload | undefined> {
  if (!request.isMultipart()) return undefined;
  const fields: Input = {};
  let upload: Upload | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      fields[part.fieldname] = part.value;
    } else if (upload) {
      part.file.resume();
    } else {
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      upload = { name: part.filename ?? '', bytes: Buffer.concat(chunks), truncated: part.file.truncated, fields };
    }
  }
  return upload;
}

async function runImport(request: FastifyRequest, reply: FastifyReply, compiled: CompiledResource, sources: ExportSources): Promise<FastifyReply> {
  const { model } = compiled;
  // A role that may not save may not import: refused once, before the file is read.
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
  const count = await insertAll(request.server.db, compiled, request, rows);
  return reply.ok({ count }, `成功导入 ${count} 条`);
}

// -- the template

const FORMAT_OF: Record<string, string> = {
  int: '整数',
  decimal: '数字',
  money: '金额（数字）',
  date: '日期，如 2026-03-01',
  datetime: '日期时间，如 2026-03-01 08:30:00',
  bool: '填写“是”或“否”',
  dict: '代码或名称，见下方代码表',
  area: '代码或名称，见下方代码表',
  multiDict: '代码或名称，多个用“、”分隔，见下方代码表',
};

function formatOf(model: ResourceModel, f: FieldModel, compiled: CompiledResource): string {
  const { field } = f;
  if (f.type === 'ref') return `${compiled.runtime.models.get(field.ref ?? '')?.title ?? ''}记录的编号`;
  const base = FORMAT_OF[f.type] ?? (field.maxLength ? `文本，不超过${field.maxLength}个字符` : '文本');
  const range = field.min !== undefined && field.max !== undefined ? `，${field.min}～${field.max}` : field.min !== undefined ? `，不小于${field.min}` : field.max !== undefined ? `，不大于${field.max}` : '';
  return `${base}${range}`;
}

/** Text of a field's default, for the notes. */
function defaultText(model: ResourceModel, f: FieldModel, sources: ExportSources): string {
  const value = f.field.default;
  if (value === undefined) return '';
  const labels = labelsOf(model, f, sources.dictLabels);
  const show = (v: unknown) => (typeof v === 'boolean' ? (v ? '是' : '否') : (labels?.get(String(v)) ?? String(v)));
  return Array.isArray(value) ? value.map(show).join('、') : show(value);
}

/** The template: the header row (required columns marked *) and the notes sheet with the code tables. */
export async function importTemplate(compiled: CompiledResource, sources: ExportSources, title: string, maxRows: number): Promise<Buffer> {
  const { model } = compiled;
  const fields = importFields(model);
  const workbook = new (await loadExcel()).Workbook();
  const sheet = workbook.addWorksheet(sheetName(title), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = fields.map((f) => ({
    header: f.field.required ? `*${f.label}` : f.label,
    width: Math.max(12, Math.min(40, f.label.length * 2 + 4)),
    // Text columns stay text (long codes would become numbers); date columns show as dates.
    style: f.kind === 'string' && !f.codes ? { numFmt: '@' } : f.kind === 'date' ? { numFmt: 'yyyy-mm-dd' } : f.kind === 'datetime' ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : {},
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  fields.forEach((f, i) => {
    const cell = header.getCell(i + 1);
    cell.numFmt = 'General';
    if (f.field.required) cell.font = { bold: true, color: { argb: 'FFC00000' } };
    if (f.field.description) cell.note = f.field.description;
  });

  const notes = workbook.addWorksheet(NOTES_SHEET);
  notes.columns = [{ width: 24 }, { width: 44 }, { width: 24 }, { width: 50 }];
  const bold = (row: ExcelJS.Row) => {
    row.font = { bold: true };
  };
  bold(notes.addRow(['填写说明']));
  for (const line of [
    `1. 在“${sheet.name}”工作表中填写，第一行为表头，请勿修改；从第二行起每行一条记录。`,
    '2. 表头带 * 的列为必填项；留空的列按默认值处理（如有）。',
    '3. 字典类列可填写代码或名称（见下方代码表）；日期填写 Excel 日期或 YYYY-MM-DD；是/否列填写“是”或“否”。',
    '4. 文件中任何一行有误时不会导入任何数据，请按提示修改后重新上传。',
    `5. 单次最多导入 ${maxRows} 行。`,
  ]) {
    notes.addRow([line]);
  }
  notes.addRow([]);
  bold(notes.addRow(['列名', '填写格式', '必填', '说明']));
  for (const f of fields) {
    const fallback = defaultText(model, f, sources);
    const required = f.field.required ? (fallback ? `是（留空默认：${fallback}）` : '是') : fallback ? `否（默认：${fallback}）` : '否';
    notes.addRow([f.label, formatOf(model, f, compiled), required, f.field.description ?? '']);
  }
  const coded = fields.filter((f) => f.codes);
  if (coded.length > 0) {
    notes.addRow([]);
    bold(notes.addRow(['代码表']));
    bold(notes.addRow(['列名', '代码', '名称']));
    for (const f of coded) {
      const labels = labelsOf(model, f, sources.dictLabels);
      for (const code of f.codes ?? []) notes.addRow([f.label, code, labels?.get(code) ?? code]);
    }
  }
  // Codes are text: keep them so ('0100' stays '0100').
  notes.getColumn(2).numFmt = '@';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** `GET /r/<resource>/import-template`: registered beside export (legacy aliases may bind to it). */
export function importTemplateOperation(compiled: CompiledResource, sources: ExportSources): Operation {
  const { model } = compiled;
  return {
    name: 'import-template',
    takesId: false,
    methods: ['GET'],
    options: {
      ...commonOptions(model),
      schema: {
        tags: [model.name],
        summary: `${model.title}: XLSX template of the import (screen=<list screen id> names the file)`,
        querystring: { type: 'object', properties: { screen: { type: 'string' } } },
        response: { 200: { content: { [XLSX_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary' } } } }, ...failureResponses },
      },
      handler: async (request, reply) => {
        const screen = screenOf(model, sources, asObject(request.query).screen);
        const title = screen?.title ?? model.title;
        const bytes = await importTemplate(compiled, sources, title, request.server.config.importMaxRows);
        return reply.header('content-disposition', contentDisposition(`${model.name}-import-template`, `${title}导入模板`)).type(XLSX_CONTENT_TYPE).send(bytes);
      },
    },
  };
}

/** `POST /r/<resource>/import` (multipart). */
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
              problems: { type: 'array', items: { type: 'object', properties: { row: { type: 'integer' }, field: { type: 'string' }, message: { type: 'string' } } } },
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
export async function registerImportRoutes(app: FastifyInstance, operations: ReadonlyMap<string, Operation>, url: (resource: string, operation: string) => string): Promise<void> {
  if (operations.size === 0) return;
  await app.register(async (scope) => {
    const maxBytes = Math.floor(app.config.attachmentMaxMb * 1024 * 1024);
    await scope.register(multipart, {
      // An over-size file is cut by the parser and refused with the Chinese message.
      throwFileSizeLimit: false,
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 },
    });
    for (const [resource, op] of operations) scope.route({ ...op.options, method: op.methods, url: url(resource, op.name) });
  });
}
