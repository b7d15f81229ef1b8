/**
 * The open verification of a printed document, shared by the browser (/verify/:token) and the
 * server (src/server/resources/documents.ts): its address and the shape it answers.
 */
import type { FromSchema } from 'json-schema-to-ts';

/** The verification route, relative to the API base. */
export const DOCUMENT_VERIFY_ROUTE = '/document/verify/:token';

/** The verification address of a token, relative to the API base. */
export const documentVerifyPath = (token: string): string => `/document/verify/${encodeURIComponent(token)}`;

/** What the verification answers: the document's facts and nothing else. */
export const documentVerificationSchema = {
  type: 'object',
  required: ['title', 'number', 'unitName', 'date', 'state', 'stateLabel', 'valid'],
  additionalProperties: false,
  properties: {
    title: { type: 'string' },
    number: { type: ['string', 'null'] },
    unitName: { type: ['string', 'null'] },
    date: { type: ['string', 'null'] },
    state: { type: ['string', 'null'] },
    stateLabel: { type: ['string', 'null'] },
    /** Whether the record is still in a printable state (a cancelled notice is not valid any more). */
    valid: { type: 'boolean' },
  },
} as const;

/** The answer of the open verification. */
export type DocumentVerification = FromSchema<typeof documentVerificationSchema>;
