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
