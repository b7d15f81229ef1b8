/**
 * A streaming writer of a one-sheet XLSX workbook of plain rows: a bold, frozen header row, column
 * widths, and per-column number formats (dates, amounts); strings are written inline (no shared
 * string table, so nothing grows with the row count). The zip is archiver's (the library exceljs
 * itself writes with), fed the sheet's XML through a stream, so rows are produced no faster than
 * they are compressed and sent (real backpressure).
 *
 * Why not exceljs's WorkbookWriter, which the import and template still use: it builds a model of
 * every cell (address, style, value object) before rendering it to XML, about three quarters of an
 * export's time (npm run bench:export). The sheet XML of a flat list is a small, well-specified
 * part of SpreadsheetML (ECMA-376 part 1, section 18.3): a row is written here as one string.
 */
import { PassThrough, type Writable } from 'node:stream';

export type SheetCell = string | number | Date | null | undefined;

export interface SheetColumn {
  header: string;
  /** Width in characters. */
  width: number;
  /** Excel number format of the column's cells (dates: 'yyyy-mm-dd'). */
  numFmt?: string;
}

/** Excel's limit on the text of one cell. */
const MAX_CELL_TEXT = 32_767;
/** Sheet XML the writer may hold ahead of the compressor before a batch of rows waits. */
const SHEET_HIGH_WATER = 1024 * 1024;
const MS_PER_DAY = 86_400_000;
/** The serial number of 1970-01-01 in Excel's 1900 date system. */
const EPOCH_SERIAL = 25_569;
/** First id of a custom number format (0–163 are built in). */
const FIRST_CUSTOM_NUMFMT = 164;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/**
 * Text as XML character data: markup escaped, a carriage return as a reference (a reader would
 * turn a literal one into a line feed), characters XML 1.0 cannot hold dropped. Cells are always
 * inline strings (t="inlineStr"), never formulas: text starting with =, +, -, @, a tab or a CR
 * opens in Excel as the text it is.
 */
export function xmlText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are not allowed in XML text
  return text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g, '').replace(/[&<>"\r]/g, (c) => ESCAPES[c]);
}

/** The column letters of a 0-based column index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A date as Excel's serial day number (UTC fields: the caller gives the wall-clock time it means). */
export const excelSerial = (date: Date): number => date.getTime() / MS_PER_DAY + EPOCH_SERIAL;

/** The number formats of the columns as style indexes: 0 plain, 1 bold header, 2… one per format. */
function stylesOf(columns: readonly SheetColumn[]): { xml: string; styleOf: number[] } {
  const formats = [...new Set(columns.flatMap((c) => (c.numFmt ? [c.numFmt] : [])))];
  const styleOf = columns.map((c) => (c.numFmt ? 2 + formats.indexOf(c.numFmt) : 0));
  const numFmts = formats.length
    ? `<numFmts count="${formats.length}">${formats.map((f, i) => `<numFmt numFmtId="${FIRST_CUSTOM_NUMFMT + i}" formatCode="${xmlText(f)}"/>`).join('')}</numFmts>`
    : '';
  const xfs = [
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
    ...formats.map((_, i) => `<xf numFmtId="${FIRST_CUSTOM_NUMFMT + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`),
  ];
  const font = (bold: boolean) => `<font>${bold ? '<b/>' : ''}<sz val="11"/><name val="Calibri"/><family val="2"/></font>`;
  const xml =
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">${numFmts}` +
    `<fonts count="2">${font(false)}${font(true)}</fonts>` +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';
  return { xml, styleOf };
}

/** One cell's XML (empty for no value). */
function cellXml(ref: string, value: SheetCell, style: number): string {
  const s = style ? ` s="${style}"` : '';
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${ref}"${s}><v>${value}</v></c>` : '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : `<c r="${ref}"${s}><v>${excelSerial(value)}</v></c>`;
  const text = value.length > MAX_CELL_TEXT ? value.slice(0, MAX_CELL_TEXT) : value;
  const space = text.trim() === text ? '' : ' xml:space="preserve"';
  return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${xmlText(text)}</t></is></c>`;
}

/** The static parts of the package: content types, relationships, workbook. */
function packageParts(sheetName: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews>` +
        `<sheets><sheet name="${xmlText(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
  ];
}

/** Resolves once `stream` can take more, or is gone. */
function drained(stream: PassThrough): Promise<void> {
  if (stream.destroyed || !stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

export interface SheetWriter {
  /** Writes rows (cells in column order); resolves when the writer may be given more. */
  addRows(rows: Iterable<readonly SheetCell[]>): Promise<void>;
  /** Ends the sheet and the package; resolves when the whole file has been handed to `out`. */
  finish(): Promise<void>;
  /** Stops writing (the download is gone or failed). */
  abort(): void;
}

/**
 * Starts a workbook of one sheet named `sheetName` with `columns`, written to `out`. The zip
 * library loads on the first export (an idle server does without it).
 */
export async function writeSheet(out: Writable, sheetName: string, columns: readonly SheetColumn[]): Promise<SheetWriter> {
  const { default: archiver } = await import('archiver');
  const zip = archiver('zip');
  const failed = new Promise<never>((_, reject) => zip.on('error', reject));
  failed.catch(() => undefined); // observed by finish()
  zip.pipe(out);
  const { xml: styles, styleOf } = stylesOf(columns);
  for (const [name, xml] of packageParts(sheetName)) zip.append(xml, { name });
  zip.append(styles, { name: 'xl/styles.xml' });
  const sheet = new PassThrough({ highWaterMark: SHEET_HIGH_WATER });
  zip.append(sheet, { name: 'xl/worksheets/sheet1.xml' });

  const letters = columns.map((_, i) => columnLetters(i));
  const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
  sheet.write(
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
      `<sheetFormatPr defaultRowHeight="15"/>${columns.length ? `<cols>${cols}</cols>` : ''}<sheetData>` +
      `<row r="1">${columns.map((c, i) => cellXml(`${letters[i]}1`, c.header, 1)).join('')}</row>`,
  );
  let rowNumber = 1;
  return {
    async addRows(rows) {
      let xml = '';
      for (const row of rows) {
        rowNumber++;
        xml += `<row r="${rowNumber}">`;
        for (let i = 0; i < letters.length; i++) xml += cellXml(letters[i] + rowNumber, row[i], styleOf[i]);
        xml += '</row>';
      }
      sheet.write(xml);
      await Promise.race([drained(sheet), failed]);
    },
    async finish() {
      sheet.end('</sheetData></worksheet>');
      await Promise.race([zip.finalize(), failed]);
    },
    abort() {
      sheet.destroy();
      zip.abort();
    },
  };
}
