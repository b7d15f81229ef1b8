/** XLSX answers read back in tests. */
import ExcelJS from 'exceljs';

/** Every cell of every sheet of a workbook as text, one cell a line. */
export async function workbookText(body: Buffer): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const cells: string[] = [];
  for (const sheet of workbook.worksheets) sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text ?? ''))));
  return cells.join('\n');
}
