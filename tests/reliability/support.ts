/**
 * The reliability suite's tools: the operations of the OpenAPI document (every route the server
 * documents, the legacy paths included, with who may call them: `x-access`), a tally of requests,
 * checks and failures that prints the suite's summary line, and exact row counts of every table.
 */
import { appendFileSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../src/server/db/index';

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Full URL path with `{name}` placeholders, API base included. */
  path: string;
  /** `public`, `session`, or menu access ids of which the role needs one. */
  access: 'public' | 'session' | readonly string[];
  seedOnly: boolean;
  /** Documented body property names (empty when the body is free or absent). */
  bodyFields: string[];
  /** Every declared parameter: path, query and (JSON) body properties, with their schemas. */
  params: DeclaredParam[];
}

/** A JSON Schema as the OpenAPI document shows it (the parts the fuzz reads). */
export interface ParamSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: ParamSchema[];
  items?: ParamSchema;
}

export interface DeclaredParam {
  name: string;
  in: 'path' | 'query' | 'body';
  schema: ParamSchema;
}

interface DocOperation {
  'x-access'?: string;
  'x-seed-only'?: boolean;
  parameters?: Array<{ in: string; name: string; schema?: ParamSchema }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, ParamSchema> } }> };
}

/** Every operation of the server's OpenAPI document. */
export async function documentedOperations(app: FastifyInstance): Promise<Operation[]> {
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, DocOperation>> }>();
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const raw = op['x-access'] ?? 'session';
      const access = raw === 'public' || raw === 'session' ? raw : raw.split(' | ');
      const content = op.requestBody?.content ?? {};
      const bodyFields = [...new Set(Object.values(content).flatMap((c) => Object.keys(c.schema?.properties ?? {})))];
      const params: DeclaredParam[] = (op.parameters ?? []).flatMap((p) =>
        p.in === 'path' || p.in === 'query' ? [{ name: p.name, in: p.in, schema: p.schema ?? {} }] : [],
      );
      const bodySchemas = Object.assign({}, ...Object.values(content).map((c) => c.schema?.properties ?? {})) as Record<string, ParamSchema>;
      for (const [name, schema] of Object.entries(bodySchemas)) params.push({ name, in: 'body', schema });
      ops.push({ method: method.toUpperCase() as Operation['method'], path, access, seedOnly: op['x-seed-only'] === true, bodyFields, params });
    }
  }
  return ops;
}

/** The path with every `{param}` replaced by `value` (already URL-encoded). */
export const fillPath = (path: string, value: string): string => path.replace(/\{[^}]+\}/g, value);
export const hasParams = (path: string): boolean => /\{[^}]+\}/.test(path);

/** Counts requests, checks and failures; `line()` is the summary the suite prints. */
export class Tally {
  requests = 0;
  checks = 0;
  readonly failures: string[] = [];

  constructor(private readonly name: string) {}

  check(ok: boolean, what: () => string): boolean {
    this.checks++;
    if (!ok) this.failures.push(what());
    return ok;
  }

  line(): string {
    return `reliability ${this.name}: ${this.requests} requests, ${this.checks} checks, ${this.failures.length} failures`;
  }

  /** The first failures since `from`, for the assertion message; PORTAL_RELIABILITY_LOG=path writes them all. */
  sample(from = 0, n = 15): string[] {
    const log = process.env.PORTAL_RELIABILITY_LOG;
    if (log)
      appendFileSync(
        log,
        this.failures
          .slice(from)
          .map((f) => `${this.name} ${f}\n`)
          .join(''),
      );
    return this.failures.slice(from, from + n);
  }
}

/** Exact row counts of every table of the current schema. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await sql<{
    name: string;
  }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(
    db,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) counts[name] = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(name)}`.execute(db)).rows[0].n;
  return counts;
}

const CJK = /[\u4e00-\u9fff]/;
/** What no answer may carry: a stack frame, a file of the server, SQL text, a framework code. */
const LEAK = /\bat [\w.<>$]+ \(|node_modules|\/src\/server\/|\bSELECT\b.*\bFROM\b|\bINSERT INTO\b|syntax error at|FST_ERR|TypeError|ReferenceError/;

function parseJson(text: string): { result?: unknown; message?: unknown } | null | undefined {
  try {
    return JSON.parse(text) as { result?: unknown; message?: unknown } | null;
  } catch {
    return undefined;
  }
}

/** A failed request's answer is the envelope with a Chinese message; none leaks the server's insides. */
export function answerProblems(res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`status ${res.statusCode}`);
  if (LEAK.test(res.body)) problems.push(`leaks ${LEAK.exec(res.body)?.[0]}`);
  if (res.statusCode >= 400) {
    // A page a person opens (the sandbox cashier) answers in HTML: in Chinese too.
    if (String(res.headers['content-type'] ?? '').startsWith('text/html')) {
      if (!CJK.test(res.body)) problems.push('an HTML refusal without Chinese text');
      return problems;
    }
    const body = parseJson(res.body);
    if (body === undefined) problems.push('not JSON');
    else if (body?.result !== 'false' || typeof body.message !== 'string' || !CJK.test(body.message))
      problems.push(`not a Chinese envelope: ${res.body.slice(0, 120)}`);
  }
  return problems;
}
