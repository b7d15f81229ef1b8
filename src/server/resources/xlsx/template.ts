/** The import template: the header row (required columns marked *) and the 说明 sheet with the code tables. */
import type ExcelJS from 'exceljs';
import { failureResponses } from '../../../shared/wire';
import type { FieldModel, ResourceModel } from '../model';
import { commonOptions, type Operation } from '../operations';
import { type CompiledResource } from '../records';
import { loadExcel } from './excel';
import { XLSX_CONTENT_TYPE, contentDisposition, labelsOf, sheetName, type ExportSources } from './export';
import { NOTES_SHEET } from './cells';
import { importFields } from './sheet';
import { asObject, screenOf } from './import';

// -- the template

export const FORMAT_OF: Record<string, string> = {
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

export function formatOf(model: ResourceModel, f: FieldModel, compiled: CompiledResource): string {
  const { field } = f;
  if (f.type === 'ref') return `${compiled.runtime.models.get(field.ref ?? '')?.title ?? ''}的名称（同导出文件）或编号`;
  const base = FORMAT_OF[f.type] ?? (field.maxLength ? `文本，不超过${field.maxLength}个字符` : '文本');
  const range =
    field.min !== undefined && field.max !== undefined
      ? `，${field.min}～${field.max}`
      : field.min !== undefined
        ? `，不小于${field.min}`
        : field.max !== undefined
          ? `，不大于${field.max}`
          : '';
  return `${base}${range}`;
}

/** Text of a field's default, for the notes. */
export function defaultText(model: ResourceModel, f: FieldModel, sources: ExportSources): string {
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
    style:
      f.kind === 'string' && !f.codes
        ? { numFmt: '@' }
        : f.kind === 'date'
          ? { numFmt: 'yyyy-mm-dd' }
          : f.kind === 'datetime'
            ? { numFmt: 'yyyy-mm-dd hh:mm:ss' }
            : {},
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  fields.forEach((f, i) => {
    const cell = header.getCell(i + 1);
    cell.numFmt = 'General';
    if (f.field.required) cell.font = { bold: true, color: { argb: 'FFC00000' } };
    if (f.field.help) cell.note = f.field.help;
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
    notes.addRow([f.label, formatOf(model, f, compiled), required, f.field.help ?? '']);
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
        return reply
          .header('content-disposition', contentDisposition(`${model.name}-import-template`, `${title}导入模板`))
          .type(XLSX_CONTENT_TYPE)
          .send(bytes);
      },
    },
  };
}

/** `POST /r/<resource>/import` (multipart). */
