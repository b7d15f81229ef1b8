/**
 * The streaming sheet writer of exports (src/server/resources/xlsx/sheet-writer.ts): the file it
 * writes, read back by exceljs, holds the header (bold, frozen), widths, typed cells and any text
 * exactly; XML-hostile text neither breaks the file nor changes; backpressure holds rows back.
 */
import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { columnLetters, excelSerial, writeSheet, xmlText, type SheetCell, type SheetColumn } from '../../src/server/resources/xlsx/sheet-writer';

async function written(columns: SheetColumn[], batches: SheetCell[][][], name = '导出'): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => out.on('end', resolve));
  const sheet = await writeSheet(out, name, columns);
  for (const rows of batches) await sheet.addRows(rows);
  await sheet.finish();
  await ended;
  return Buffer.concat(chunks);
}

async function read(file: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  return workbook.worksheets[0];
}

describe('xlsx sheet writer', () => {
  it('names columns by letters past Z', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it("gives dates Excel's serial day numbers", () => {
    expect(excelSerial(new Date('1970-01-01T00:00:00Z'))).toBe(25569);
    expect(excelSerial(new Date('2026-03-01T00:00:00Z'))).toBe(46082);
    expect(excelSerial(new Date('2026-03-01T12:00:00Z'))).toBe(46082.5);
  });

  it('escapes markup and drops characters XML cannot hold', () => {
    expect(xmlText('a<b>&"c"\u0001\u000b\td\n')).toBe('a&lt;b&gt;&amp;&quot;c&quot;\td\n');
  });

  it('writes the header, widths, frozen pane and typed cells that read back as written', async () => {
    const columns: SheetColumn[] = [
      { header: '名称', width: 24 },
      { header: '日期', width: 12, numFmt: 'yyyy-mm-dd' },
      { header: '金额', width: 14, numFmt: '#,##0.00' },
      { header: '时间', width: 20, numFmt: 'yyyy-mm-dd hh:mm:ss' },
    ];
    const hostile = ' <c r="A1">&amp;</c> ]]> "引号" \u0007 ';
    const long = '长'.repeat(40_000);
    const file = await written(columns, [
      [
        ['锅炉一号', new Date('2026-03-01T00:00:00Z'), 1234.5, new Date('2026-03-01T08:30:15Z')],
        [hostile, null, 0, undefined],
      ],
      [[long, new Date('2000-02-29T00:00:00Z'), -7, null]],
    ]);
    const sheet = await read(file);
    expect(sheet.rowCount).toBe(4);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['名称', '日期', '金额', '时间']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.columns.map((c) => c.width)).toEqual([24, 12, 14, 20]);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual(['锅炉一号', new Date('2026-03-01T00:00:00Z'), 1234.5, new Date('2026-03-01T08:30:15Z')]);
    expect(sheet.getRow(2).getCell(2).numFmt).toBe('yyyy-mm-dd');
    expect(sheet.getRow(2).getCell(3).numFmt).toBe('#,##0.00');
    expect(sheet.getRow(2).getCell(4).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(sheet.getRow(3).getCell(1).value).toBe(hostile.replace('\u0007', ''));
    expect(sheet.getRow(3).getCell(2).value).toBeNull();
    expect(sheet.getRow(3).getCell(3).value).toBe(0);
    expect(sheet.getRow(4).getCell(1).value).toBe('长'.repeat(32_767));
    expect(sheet.getRow(4).getCell(2).value).toEqual(new Date('2000-02-29T00:00:00Z'));
  });

  it('writes text that looks like a formula (=, +, -, @, tab, CR first) as a text cell, never a formula', async () => {
    const formulas = ['=1+1', '=HYPERLINK("http://evil.example","点我")', '+1+1', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', "=cmd|' /C calc'!A0"];
    const file = await written([{ header: '文本', width: 30 }], [formulas.map((text) => [text])]);
    const sheet = await read(file);
    formulas.forEach((text, i) => {
      const cell = sheet.getRow(i + 2).getCell(1);
      expect(cell.type, JSON.stringify(text)).toBe(ExcelJS.ValueType.String);
      expect(cell.formula, JSON.stringify(text)).toBeUndefined();
      expect(cell.value).toBe(text);
    });
  });

  it('gives the sheet a name Excel accepts as written by the caller', async () => {
    const sheet = await read(await written([{ header: 'x', width: 8 }], [[['1']]], '使用登记 & 变更'));
    expect(sheet.name).toBe('使用登记 & 变更');
  });

  it('holds rows back while the reader does not read', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let received = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        void gate.then(() => done());
      },
    });
    const sheet = await writeSheet(slow, 's', [{ header: '文本', width: 30 }]);
    // Incompressible text: each batch stays ~0.5 MB after deflate.
    const batch = Array.from({ length: 5000 }, (_, i) => [`第${i}行 ${randomBytes(96).toString('base64')}`]);
    let batches = 0;
    const writing = (async () => {
      for (let i = 0; i < 16; i++) {
        await sheet.addRows(batch);
        batches++;
      }
    })();
    // Wait until the writer stops making progress (or wrote everything), however slow the machine.
    for (let last = -1, still = 0; still < 3 && batches < 16;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      still = batches === last ? still + 1 : 0;
      last = batches;
    }
    // 16 batches of ~0.7 MB each would be written at once without backpressure; a few MB are
    // held by the sheet stream, the compressor and the archive's buffers.
    expect(batches).toBeLessThan(12);
    expect(received).toBeLessThan(64 * 1024);
    release();
    await writing;
    await sheet.finish();
    expect(batches).toBe(16);
    // Deflating ~11 MB takes seconds on a busy 2-core machine: the unit project's testTimeout, no tight limit.
  });
});
