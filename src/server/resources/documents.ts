/**
 * Printed documents of a resource (its JSON's `document`: a licence, a notice, a letter):
 *
 *   GET|POST /r/<resource>/document/<id>   the record (as `get` answers it, same scope: another
 *            unit's row is RECORD_NOT_FOUND) and its verification token — only in the document's
 *            printable `states` (else DOCUMENT_NOT_PRINTABLE); the token is made on first print
 *   GET      /document/verify/<token>       open (no login, rate-limited): that the document is
 *            genuine — its title, number, unit name, date and current state, nothing else;
 *            an unknown token answers DOCUMENT_NOT_FOUND
 *
 * Tokens are 128 random bits (hex) kept in sys_document_token, one per record, never the row id,
 * so the verification address cannot be guessed from another document's.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { ResourceDocument } from '../../schema/types';
import { PORTAL_TIME_ZONE } from '../../shared/dates';
import { DOCUMENT_VERIFY_ROUTE, documentVerificationSchema, type DocumentVerification } from '../../shared/documents';
import { envelopeOf, failureResponses } from '../../shared/wire';
import { AppError } from '../errors';
import type { ResourceModel } from './model';
import { commonOptions, inputOf, type Operation } from './operations';
import { presentRow } from './masking';
import { getRecord, type CompiledResource } from './records';
import type { AnyDb, Row } from './repository';
import { actorOf } from './scope';

interface TokenTable {
  token: string;
  resource: string;
  record_id: string;
  created_at: Date;
}
const tokens = (db: AnyDb) => db as Kysely<{ sys_document_token: TokenTable }>;

/** The fields a document names exist on the resource (checked once at start). */
function checkDocument(model: ResourceModel, doc: ResourceDocument): void {
  for (const key of ['number', 'unit', 'date'] as const) {
    const name = doc[key];
    if (name !== undefined && !model.byName.has(name)) throw new Error(`resource '${model.name}': document.${key} names no field '${name}'`);
  }
  const states = new Set(model.workflow?.states.map((s) => s.code) ?? []);
  for (const state of doc.states) if (!states.has(state)) throw new Error(`resource '${model.name}': document.states names no workflow state '${state}'`);
}

const printable = (doc: ResourceDocument, row: Row): boolean => typeof row.status === 'string' && doc.states.includes(row.status);

/** The record's token, made on first use (two prints at once agree through the unique index). */
export async function documentToken(db: AnyDb, model: ResourceModel, recordId: string): Promise<string> {
  const t = tokens(db);
  await t
    .insertInto('sys_document_token')
    .values({ token: randomBytes(16).toString('hex'), resource: model.name, record_id: recordId, created_at: new Date() })
    .onConflict((oc) => oc.columns(['resource', 'record_id']).doNothing())
    .execute();
  const row = await t
    .selectFrom('sys_document_token')
    .select('token')
    .where('resource', '=', model.name)
    .where('record_id', '=', recordId)
    .executeTakeFirstOrThrow();
  return row.token;
}

/** The `document` operation of a resource that prints; undefined for the others. */
export function documentOperation(compiled: CompiledResource): Operation | undefined {
  const { model } = compiled;
  const doc = model.resource.document;
  if (!doc) return undefined;
  checkDocument(model, doc);
  return {
    name: 'document',
    takesId: true,
    methods: ['GET', 'POST'],
    options: {
      ...commonOptions(model),
      schema: {
        tags: [model.name],
        summary: `${model.title}: the record as its printed document (${doc.title}) with its verification token; only in states ${doc.states.join(', ')}`,
        response: {
          200: envelopeOf({
            type: 'object',
            required: ['record', 'token'],
            properties: { record: { type: 'object', additionalProperties: true }, token: { type: 'string' } },
          }),
          ...failureResponses,
        },
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const db = request.server.db as AnyDb;
        const id = (request.params as { id?: unknown } | undefined)?.id ?? inputOf(request).id;
        const actor = actorOf(request);
        // A printed document is a detail view: masked fields whole for the owner and the roles their mask names (audited).
        const record = await getRecord(db, model, actor, id);
        if (!printable(doc, record)) throw new AppError('DOCUMENT_NOT_PRINTABLE');
        await presentRow(db, model, actor, record, true);
        return reply.ok({ record, token: await documentToken(db, model, String(record.id)) });
      },
    },
  };
}

const text = (value: unknown): string | null => (value === null || value === undefined || value === '' ? null : String(value));

/** The day the record first reached a printable state (its flow log), as YYYY-MM-DD in the portal's time zone. */
async function printableSince(db: AnyDb, model: ResourceModel, doc: ResourceDocument, recordId: string): Promise<string | null> {
  const { rows } = await sql<{ day: string | null }>`
    SELECT to_char(min(created_at) AT TIME ZONE ${PORTAL_TIME_ZONE}, 'YYYY-MM-DD') AS day FROM sys_flow_log
    WHERE resource = ${model.name} AND record_id = ${recordId} AND to_state IN (${sql.join(doc.states)})`.execute(db);
  return rows[0]?.day ?? null;
}

/** What the open verification shows of the record behind a token; undefined for an unknown token (or a deleted record). */
export async function verifyDocument(db: AnyDb, resources: ReadonlyMap<string, CompiledResource>, token: string): Promise<DocumentVerification | undefined> {
  if (!/^[0-9a-f]{32}$/.test(token)) return undefined;
  const entry = await tokens(db).selectFrom('sys_document_token').select(['resource', 'record_id']).where('token', '=', token).executeTakeFirst();
  const model = entry && resources.get(entry.resource)?.model;
  const doc = model?.resource.document;
  if (!entry || !model || !doc) return undefined;
  const columns = [doc.number, doc.unit, doc.date].filter((n): n is string => n !== undefined).map((n) => model.byName.get(n)!);
  const select = sql.join([
    ...columns.map((f) =>
      f.read
        ? sql`${sql.raw(f.read)} AS ${sql.ref(f.name)}`
        : f.kind === 'date'
          ? sql`to_char(${sql.ref(f.column)}, 'YYYY-MM-DD') AS ${sql.ref(f.name)}`
          : sql`${sql.ref(f.column)} AS ${sql.ref(f.name)}`,
    ),
    sql`status`,
  ]);
  const { rows } = await sql<Row>`SELECT ${select} FROM ${sql.table(model.table)} WHERE id = ${entry.record_id}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const state = text(row.status);
  return {
    title: doc.title,
    number: text(row[doc.number]),
    unitName: text(row[doc.unit]),
    date: doc.date ? text(row[doc.date]) : await printableSince(db, model, doc, entry.record_id),
    state,
    stateLabel: model.workflow?.states.find((s) => s.code === state)?.label ?? state,
    valid: printable(doc, row),
  };
}

/** The open verification route (registered in the API scope by the resource engine). */
export function registerDocumentVerification(app: FastifyInstance, rateLimit: number): void {
  app.route({
    method: 'GET',
    url: DOCUMENT_VERIFY_ROUTE,
    config: { public: true, rateLimit: { max: rateLimit, timeWindow: 60_000 } },
    schema: {
      tags: ['document'],
      summary: 'Open verification of a printed document by the token of its QR code: title, number, unit name, date and state only',
      params: { type: 'object', required: ['token'], properties: { token: { type: 'string', maxLength: 64 } } },
      response: { 200: envelopeOf(documentVerificationSchema), ...failureResponses },
    },
    handler: async (request, reply) => {
      const { token } = request.params as { token: string };
      const found = await verifyDocument(request.server.db as AnyDb, request.server.resources, token);
      if (!found) throw new AppError('DOCUMENT_NOT_FOUND');
      return reply.ok(found);
    },
  });
}
