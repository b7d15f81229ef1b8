/**
 * The operations of a resource as route definitions without a URL: list, get, flowLog, save and
 * each workflow action. The canonical routes (/r/<resource>/...) and the legacy aliases
 * (src/server/legacy) register the same definitions, so an alias is data, not a handler.
 *
 * Record ids come from the path (`:id`), else the body or query (`id`), as legacy clients send them.
 */
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { envelopeOf, failureResponses, pageOf } from '../../shared/wire';
import { getAuditLog, getFlowLog, getRecord, listRecordsJson, markRead, type CompiledResource } from './records';
import { runAction, type ActionInput } from './record-actions';
import { saveRecord } from './record-save';
import { presentRow } from './masking';
import type { ResourceModel } from './model';
import { actionBodySchema, auditEntrySchema, fieldFilesSchema, flowLogEntrySchema, rowSchema } from './schemas';
import { actorOf } from './scope';

/** Reads that are not workflow actions. */
export const READ_OPERATIONS = ['list', 'get', 'flowLog', 'auditLog'] as const;

export interface Operation {
  name: string;
  /** Whether the record id is part of the canonical URL. */
  takesId: boolean;
  methods: ('GET' | 'POST')[];
  options: RouteShorthandOptions & { handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> };
}

type Input = Record<string, unknown>;

const asObject = (value: unknown): Input => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : {});

/** Query string and body merged (body wins): lists and actions accept either. */
export const inputOf = (request: FastifyRequest): Input => ({ ...asObject(request.query), ...asObject(request.body) });

const idOf = (request: FastifyRequest): unknown => asObject(request.params).id ?? inputOf(request).id;

function actionInput(input: Input): ActionInput {
  const version = input.version === undefined || input.version === '' ? undefined : Number(input.version);
  return {
    opinion: typeof input.opinion === 'string' ? input.opinion : undefined,
    version: Number.isInteger(version) ? version : undefined,
    extra: input,
  };
}

/**
 * A request schema here is the very object the records layer checks with (the compiled
 * validator's `schema`, from the server's one ajv): the OpenAPI document shows what is enforced.
 * The check itself runs in record-save.ts, not in Fastify, because the XLSX import and the legacy
 * aliases (query and body merged, ids in either) reach the same functions without this route;
 * so the route does not check a second time.
 */
const documentedOnly = { validatorCompiler: () => () => true } as const;

/** The body of a workflow action as checked: opinion and version, and the fields its `input` asks for. */
function actionBody(compiled: CompiledResource, name: string): object {
  const input = compiled.validateInputs?.get(name)?.schema as { properties?: object; required?: string[] } | undefined;
  if (!input) return actionBodySchema;
  return { ...actionBodySchema, properties: { ...actionBodySchema.properties, ...input.properties }, required: input.required };
}

/**
 * Options every operation of a resource shares: documentation-only schemas and the RBAC rule (the
 * resource's menu access ids), which the rbac plugin checks before the body is read and the OpenAPI
 * document shows as `x-access`.
 */
export function commonOptions(model: ResourceModel) {
  return {
    ...documentedOnly,
    config: { accessAny: model.access },
  };
}

export function operationsOf(compiled: CompiledResource): Operation[] {
  const { model } = compiled;
  const db = (request: FastifyRequest) => request.server.db;
  const tags = [model.name];
  const row = rowSchema(model);
  const common = commonOptions(model);
  const ops: Operation[] = [
    {
      name: 'list',
      takesId: false,
      methods: ['GET', 'POST'],
      options: {
        ...common,
        schema: {
          tags,
          summary: `${model.title}: list (filters, orderBy, paging)`,
          querystring: compiled.listPlan.paramsSchema,
          response: { 200: envelopeOf(pageOf(row)), ...failureResponses },
        },
        // The envelope comes as JSON text (the rows written by the database, named as the row schema's
        // properties): sent as it is, not parsed and serialised again against the response schema.
        handler: async (request, reply) =>
          reply.type('application/json; charset=utf-8').send(await listRecordsJson(db(request), compiled, actorOf(request), inputOf(request))),
      },
    },
    {
      name: 'get',
      takesId: true,
      methods: ['GET', 'POST'],
      options: {
        ...common,
        schema: { tags, summary: `${model.title}: one record`, response: { 200: envelopeOf(row), ...failureResponses } },
        handler: async (request, reply) => {
          const actor = actorOf(request);
          const record = await getRecord(db(request), model, actor, idOf(request));
          await markRead(db(request), model, actor, record.id as string);
          // The detail and edit views: masked fields whole for the owner and the roles their mask names (audited).
          return reply.ok(await presentRow(db(request), model, actor, record, true));
        },
      },
    },
    {
      name: 'flowLog',
      takesId: true,
      methods: ['GET', 'POST'],
      options: {
        ...common,
        schema: {
          tags,
          summary: `${model.title}: flow log of a record`,
          response: { 200: envelopeOf({ type: 'array', items: flowLogEntrySchema }), ...failureResponses },
        },
        handler: async (request, reply) => reply.ok(await getFlowLog(db(request), model, actorOf(request), idOf(request))),
      },
    },
    {
      name: 'auditLog',
      takesId: true,
      methods: ['GET', 'POST'],
      options: {
        ...common,
        schema: {
          tags,
          summary: `${model.title}: who changed what in a record (newest first)`,
          response: { 200: envelopeOf({ type: 'array', items: auditEntrySchema }), ...failureResponses },
        },
        handler: async (request, reply) => reply.ok(await getAuditLog(db(request), model, actorOf(request), idOf(request))),
      },
    },
  ];
  // A system table (system-table.ts) answers its rows and nothing else: no per-record logs, files or writes.
  if (model.systemTable) return ops.filter((op) => op.name === 'list' || op.name === 'get');
  const attachmentFields = model.fields.filter((f) => f.declared && f.type === 'attachment');
  if (attachmentFields.length > 0) {
    ops.push({
      name: 'attachments',
      takesId: true,
      methods: ['GET', 'POST'],
      options: {
        ...common,
        schema: {
          tags,
          summary: `${model.title}: the files of a record, by attachment field`,
          response: { 200: envelopeOf({ type: 'array', items: fieldFilesSchema }), ...failureResponses },
        },
        handler: async (request, reply) => {
          const record = await getRecord(db(request), model, actorOf(request), idOf(request));
          return reply.ok(attachmentFields.map((f) => ({ field: f.name, label: f.label, files: Array.isArray(record[f.name]) ? record[f.name] : [] })));
        },
      },
    });
  }
  if (model.readOnly) return ops;
  ops.push({
    name: 'save',
    takesId: false,
    methods: ['POST'],
    options: {
      ...common,
      schema: {
        tags,
        summary: `${model.title}: insert or update (isCommit: and commit)`,
        body: compiled.validateInsert.schema,
        response: { 200: envelopeOf(row), ...failureResponses },
      },
      handler: async (request, reply) => {
        const actor = actorOf(request);
        return reply.ok(await presentRow(db(request), model, actor, await saveRecord(db(request), compiled, actor, request.body ?? {})));
      },
    },
  });
  const actions = model.workflow
    ? Object.entries(model.workflow.actions)
        .filter(([, a]) => !a?.internal)
        .map(([name]) => name)
    : ['delete'];
  for (const name of actions.filter((a) => a !== 'save')) {
    ops.push({
      name,
      takesId: true,
      methods: ['POST'],
      options: {
        ...common,
        schema: {
          tags,
          summary: `${model.title}: ${name}`,
          body: actionBody(compiled, name),
          response: { 200: envelopeOf({ anyOf: [row, { type: 'null' }] }), ...failureResponses },
        },
        handler: async (request, reply) => {
          const actor = actorOf(request);
          const row = await runAction(db(request), compiled, actor, name, idOf(request), actionInput(inputOf(request)));
          return reply.ok(row && (await presentRow(db(request), model, actor, row)));
        },
      },
    });
  }
  return ops;
}
