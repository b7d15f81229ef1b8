/** The sheet of an import: which fields it may fill, its header, its rows as save bodies or problems. */
import type ExcelJS from 'exceljs';
import type { ListScreen } from '../../../schema/types';
import { requiredMessage } from '../../../schema/requirements';
import { AppError } from '../../errors';
import type { FieldModel, ResourceModel } from '../model';
import { loadExcel } from './excel';
import { labelsOf, type ExportSources } from './export';
import { isBlank, lookupOf, parseCell, plainValue, toText, type CodeLookup } from './cells';

/** Problems listed in a refused import's reply (the total is reported too). */
export const IMPORT_PROBLEM_LIMIT = 100;
/** Every .xlsx file is a zip archive: it starts with a local file header. */
export const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

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
export const normalHeader = (text: string) =>
  text
    .replace(/[\s*＊]/g, '')
    .replace(/（/g, '(')
    .replace(/）/g, ')');

/** The label the template and the problems use for a field. */
export const fieldLabel = (f: FieldModel) => f.label;

// The sheet

/** One importable column of the uploaded sheet. */
export interface SheetColumn {
  index: number;
  field: FieldModel;
}

/** One data row as a save body, or the problems that kept it from becoming one. */
export interface SheetRow {
  row: number;
  body: Record<string, unknown>;
  problems: ImportProblem[];
}

/** How a resource's sheet is read: header labels → fields, and the code lookups of coded fields. */
export interface SheetPlan {
  byHeader: ReadonlyMap<string, FieldModel>;
  /** Headers of columns that exist but are not imported (readonly and system fields, attachments). */
  ignored: ReadonlySet<string>;
  lookups: ReadonlyMap<string, CodeLookup>;
}

export function sheetPlan(model: ResourceModel, sources: ExportSources, screen: ListScreen | undefined): SheetPlan {
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
export function readHeader(sheet: ExcelJS.Worksheet, model: ResourceModel, plan: SheetPlan): { columns: SheetColumn[]; problems: ImportProblem[] } {
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
export function readRow(row: ExcelJS.Row, columns: readonly SheetColumn[], plan: SheetPlan): SheetRow | undefined {
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
      problems.push({ row: row.number, field: fieldLabel(field), message: requiredMessage(field.field) });
    }
  }
  return { row: row.number, body, problems };
}

/** Opens the first worksheet of an .xlsx file; IMPORT_NOT_XLSX when it is none. */
export async function openSheet(bytes: Buffer): Promise<ExcelJS.Worksheet> {
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
export function readRows(sheet: ExcelJS.Worksheet, columns: readonly SheetColumn[], plan: SheetPlan, max: number): SheetRow[] {
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
