/**
 * Reading a multipart request for the upload and import routes. A malformed body (no boundary, a
 * part cut short, the form ending early) is bad input, answered MULTIPART_INVALID (400) with the
 * catalogue's message; busboy reports it with plain errors, recognised here by their text. Any
 * other error (the disk, the database) stays what it is.
 */
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors';

const MALFORMED = /multipart|boundary|part header|end of form/i;

export function uploadError(err: unknown): unknown {
  if (isAppError(err) || typeof (err as { statusCode?: unknown }).statusCode === 'number') return err;
  return err instanceof Error && MALFORMED.test(err.message) ? new AppError('MULTIPART_INVALID') : err;
}

/** Calls `onPart` for each part in order; errors of a malformed body become MULTIPART_INVALID. */
export async function eachPart(request: FastifyRequest, onPart: (part: MultipartFile | MultipartValue) => Promise<void> | void): Promise<void> {
  try {
    for await (const part of request.parts()) await onPart(part);
  } catch (err) {
    throw uploadError(err);
  }
}
