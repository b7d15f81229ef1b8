/**
 * The attachment file types allowed, by extension, with the first bytes each must start with, and
 * the rules for file names (cleaned for display, the extension, the download's Content-Disposition).
 *
 * - Allowed types are listed by extension (ALLOWED_TYPES); the first bytes must match the type the
 *   extension claims (a renamed text file is not a PDF). The stored MIME type comes from this
 *   table, never from the client's Content-Type.
 */
import { AppError } from '../errors';

export interface FileType {
  mime: string;
  /** Whether the first bytes of the file are of this type. */
  sniff(head: Buffer): boolean;
}

const startsWith = (head: Buffer, bytes: readonly number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
/** PDF readers accept the header anywhere in the first 1024 bytes. */
const isPdf = (head: Buffer) => head.subarray(0, 1024).includes('%PDF-');
const isJpeg = (head: Buffer) => startsWith(head, [0xff, 0xd8, 0xff]);
const isPng = (head: Buffer) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** OLE2 compound file (legacy Office). */
const isOle = (head: Buffer) => startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** ZIP local file header (Office Open XML). */
const isZip = (head: Buffer) => startsWith(head, [0x50, 0x4b, 0x03, 0x04]);

export const ALLOWED_TYPES: Readonly<Record<string, FileType>> = {
  pdf: { mime: 'application/pdf', sniff: isPdf },
  jpg: { mime: 'image/jpeg', sniff: isJpeg },
  jpeg: { mime: 'image/jpeg', sniff: isJpeg },
  png: { mime: 'image/png', sniff: isPng },
  doc: { mime: 'application/msword', sniff: isOle },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', sniff: isZip },
};

const MAX_NAME_LENGTH = 255;

/** The file name as shown to people: the last path segment, without control characters, at most 255 characters (extension kept). */
export function cleanFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (base.length <= MAX_NAME_LENGTH) return base;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : '';
  return base.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The type a file name claims, or ATTACHMENT_TYPE_NOT_ALLOWED. */
export function allowedType(name: string): FileType {
  const type = ALLOWED_TYPES[extensionOf(name)];
  if (!type) throw new AppError('ATTACHMENT_TYPE_NOT_ALLOWED', undefined, { allowed: Object.keys(ALLOWED_TYPES) });
  return type;
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(name: string): string {
  const ext = extensionOf(name);
  // Old clients get the name itself when it is plain ASCII, else a neutral one with the extension.
  const fallback = /^[\w][\w.-]*$/.test(name) ? name : `attachment${ext ? `.${ext}` : ''}`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
