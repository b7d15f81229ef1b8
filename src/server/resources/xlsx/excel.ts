/**
 * exceljs, loaded on the first export or import instead of at start: it is the heaviest module the
 * server has (~0.3 s of CPU to load), and most processes never write a workbook.
 */
import type ExcelJS from 'exceljs';

let loading: Promise<typeof ExcelJS> | null = null;

export function loadExcel(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((m) => (m as { default: typeof ExcelJS }).default ?? (m as unknown as typeof ExcelJS));
  return loading;
}
