/** The JeeSite response envelope (src/shared/contract.ts `Envelope`) and page shape. */
import type { Envelope, Page } from '../shared/contract';

export const DEFAULT_OK_MESSAGE = '操作成功';

export function okEnvelope<T>(data: T, message = DEFAULT_OK_MESSAGE): Envelope<T> {
  return { result: 'true', success: true, isSuccess: true, message, data };
}

export function failEnvelope(code: string, message: string, data?: unknown): Envelope<unknown> {
  const envelope: Envelope<unknown> = { result: 'false', success: false, isSuccess: false, message, errorMsg: message, code };
  if (data !== undefined) envelope.data = data;
  return envelope;
}

export function page<T>(list: T[], count: number, pageNo: number, pageSize: number, countCapped = false): Page<T> {
  return countCapped ? { pageNo, pageSize, count, list, countCapped } : { pageNo, pageSize, count, list };
}

/**
 * The JSON text of `okEnvelope(page(list, count, pageNo, pageSize, countCapped))` around a list that
 * is already JSON text (the resource lists: the database writes it), so the rows are neither parsed
 * nor written again (tests/unit/envelope-json.test.ts holds it to the envelope).
 */
export function okPageJson(listJson: string, count: number, pageNo: number, pageSize: number, countCapped = false): string {
  const n = (value: number) => JSON.stringify(Number(value));
  const data = `{"pageNo":${n(pageNo)},"pageSize":${n(pageSize)},"count":${n(count)},"list":${listJson}${countCapped ? ',"countCapped":true' : ''}}`;
  return `{"result":"true","success":true,"isSuccess":true,"message":${JSON.stringify(DEFAULT_OK_MESSAGE)},"data":${data}}`;
}
