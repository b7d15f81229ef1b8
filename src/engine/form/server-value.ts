/**
 * `serverValue` (a screen field item): a read-only field whose value the server computes while
 * the form is filled in. The reaction reads the `send` fields (deeply: a sub-table's rows too), so
 * it re-runs when one of them changes; it then POSTs their values to `call` through the engine's
 * data provider (handed in through the form's scope as `$serverCall`) and shows the reply's
 * `value`. Only the answer to the latest values is shown; fields asking the same call with the same
 * values share one request; a refusal clears the value and shows the server's message as the
 * field's warning. View mode keeps the stored value (no call). A sub-table column's server value
 * (`columnServerValues`) does the same per row, sending fields of its own row.
 */
import type { Field, Form, GeneralField } from '@formily/core';
import type { ServerValue } from '../../schema/types';
import { toEngineError } from '../data/provider';
import type { ExpressionContext, FieldReaction } from './reactions';
import { formValues } from './values';

/** How the form reaches the server (the data provider's `call`). */
export type ServerCall = (path: string, body: unknown) => Promise<unknown>;

/** The scope a form gives its reactions: the expression variables and the server call. */
export interface ServerValueScope extends ExpressionContext {
  $serverCall?: ServerCall;
}

/** Quiet time after the last change before asking (typing in a sub-table cell). */
const SETTLE_MS = 250;
/** Requests remembered per form for sharing between fields. */
const SHARED_MAX = 16;

const blank = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.every(blank)) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(blank));

/** The reply's property at a dotted path. */
export function valueAt(reply: unknown, path: string): unknown {
  let current = reply;
  for (const key of path.split('.')) current = current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

const shared = new WeakMap<Form, Map<string, Promise<unknown>>>();

/** One request per form, call and body (the fields of one quote ask once). */
function ask(form: Form, call: ServerCall, path: string, body: string): Promise<unknown> {
  const key = `${path}\n${body}`;
  let requests = shared.get(form);
  if (!requests) shared.set(form, (requests = new Map<string, Promise<unknown>>()));
  let request = requests.get(key);
  if (!request) {
    request = call(path, JSON.parse(body));
    if (requests.size >= SHARED_MAX) requests.delete(requests.keys().next().value!);
    requests.set(key, request);
    // A refusal is asked again next time (the data it depends on may have been fixed meanwhile).
    request.catch(() => requests.delete(key));
  }
  return request;
}

interface FieldState {
  body?: string;
  latest: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** The record a sub-table cell belongs to (its row), read through the form's values. */
function rowOf(field: Field): Record<string, unknown> {
  const row: unknown = field.form.getValuesIn(field.path.parent());
  return row !== null && typeof row === 'object' ? (row as Record<string, unknown>) : {};
}

/**
 * The reaction of `spec`. `row`: the field is a sub-table cell (a column's server value) and `send`
 * names fields of its own row.
 */
export function serverValue(spec: ServerValue, row = false): FieldReaction {
  const states = new WeakMap<GeneralField, FieldState>();
  return (general, scope) => {
    const field = general as Field;
    const { $mode, $serverCall } = (scope ?? {}) as ServerValueScope;
    // Read every sent value (deeply) first: these reads are what re-runs the reaction.
    const source = row ? rowOf(field) : formValues(field.form);
    const values = Object.fromEntries(spec.send.map((name) => [name, source[name]]));
    const body = JSON.stringify(values);
    if ($mode === 'view' || !$serverCall) return;
    let state = states.get(field);
    if (!state) states.set(field, (state = { latest: 0 }));
    if (state.body === body) return;
    state.body = body;
    const mine = ++state.latest;
    clearTimeout(state.timer);
    const settle = (value: unknown, warning?: string) => {
      if (mine !== state.latest) return;
      field.value = value;
      field.selfWarnings = warning ? [warning] : [];
    };
    if (Object.values(values).every(blank)) return settle(undefined);
    const { form } = field;
    state.timer = setTimeout(() => {
      ask(form, $serverCall, spec.call, body).then(
        (reply) => settle(valueAt(reply, spec.value) ?? undefined),
        (error: unknown) => settle(undefined, toEngineError(error).message),
      );
    }, SETTLE_MS);
  };
}
