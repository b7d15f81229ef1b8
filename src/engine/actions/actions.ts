/**
 * Screen actions as data: which button an `ActionRef` is, what it does, whether it asks for a
 * confirmation or an opinion, and whether it is offered for a record (workflow state, role,
 * the `when` expression). Pure, so lists, forms and details decide the same way and tests can
 * check it without a browser.
 */
import { holds, parseExpression, type Expr } from '../../schema/expr';
import { actionLabel } from '../../schema/model';
import type { ActionButton } from '../../schema/generated/screen';
import type { ActionRef, Resource, WorkflowAction } from '../../schema/types';
import { actionOf, allowedInState, editableStates, mayRunOnOverseen, ownedBy, ownerField, roleMayRun, type RecordOwner } from '../../schema/workflow-rules';

export type ActionKind =
  /** Navigation to the detail / form screen. */
  | 'view'
  | 'edit'
  | 'back'
  /** Form submit: save, or save and commit in one request. */
  | 'save'
  | 'commit'
  /** A workflow action (or plain delete) on a stored record. */
  | 'record'
  /** Opens another screen for the row (`open`). */
  | 'open'
  /** POSTs the row's id to an API path (`call`). */
  | 'call'
  /** Opens a route with the row's id (`to`). */
  | 'route'
  /** Opens a dialog the app registered (`dialog`). */
  | 'dialog'
  /** Opens a form screen in a dialog for the row (`formDialog`). */
  | 'formDialog';

export interface ResolvedAction {
  name: string;
  kind: ActionKind;
  label: string;
  /** Confirmation question (none when the opinion dialog asks instead). */
  confirm?: string;
  opinion?: 'required' | 'optional';
  /** Fields the action asks for before it runs (workflow action `input`), each required. */
  input?: readonly string[];
  danger: boolean;
  /** Roles the button is for (screen and workflow restrictions combined: both must allow). */
  roles: readonly (readonly string[])[];
  when?: Expr;
  /** States the record must be in; undefined: any. */
  from?: readonly string[];
  /** `open`: the screen opened for the row. */
  screen?: string;
  /** `open` as a new record: its fields ← the row's fields (ActionButton.newWith). */
  newWith?: Readonly<Record<string, string | undefined>>;
  /** `call`: the API path; `route`: the route; `dialog`: the registered dialog's name; `formDialog`: the form screen. */
  target?: string;
  /** `call`: the message shown when it succeeded. */
  done?: string;
  /**
   * The action changes the stored record: on a record the user does not own (one its role only
   * oversees) it runs for these role types only — its workflow action's `roles` (none: owners
   * only), the server's rule (workflow-rules.ts mayRunOnOverseen). Undefined: it changes nothing.
   */
  overseers?: readonly string[];
}

export interface ActionContext {
  roleType?: string;
  mode?: string;
  /** Whether the user owns a record (resource `scope`); absent: every record counts as owned. */
  owns?: (record: Record<string, unknown>) => boolean;
}

/** The user's unit and area, as owner of the records of scoped resources (the server's rule: schema/workflow-rules.ts). */
export type { RecordOwner };

/** Whether `owner` owns a record of `resource` (unknown owner or an unscoped resource: yes; the server decides). */
export function ownsRecord(resource: Pick<Resource, 'scope'>, owner: RecordOwner | undefined): ((record: Record<string, unknown>) => boolean) | undefined {
  const field = ownerField(resource.scope);
  if (!field || !owner?.[field]) return undefined;
  return (record) => record[field] === undefined || ownedBy(resource.scope, owner, record);
}

const workflowAction = (resource: Resource, name: string): WorkflowAction | undefined => actionOf(resource.workflow, name);

const DANGER = new Set(['delete', 'cancel', 'audit-disagree']);

function kindOf(name: string, inForm: boolean): ActionKind {
  if (name === 'view' || name === 'edit' || name === 'back') return name;
  if (inForm && (name === 'save' || name === 'commit')) return name;
  return 'record';
}

/**
 * Resolves a screen's action references. `inForm`: save/commit submit the form being edited;
 * elsewhere they are record actions like any other.
 */
export function resolveActions(resource: Resource, refs: readonly ActionRef[] | undefined, { inForm = false } = {}): ResolvedAction[] {
  return (refs ?? []).map((ref) => {
    const button: ActionButton = typeof ref === 'string' ? { action: ref } : ref;
    if (button.open) {
      return {
        name: button.action,
        kind: 'open' as const,
        label: button.label ?? button.action,
        danger: button.danger ?? false,
        roles: button.roles?.length ? [button.roles] : [],
        when: button.when ? parseExpression(button.when) : undefined,
        screen: button.open,
        newWith: button.newWith,
      };
    }
    const plain =
      button.call !== undefined
        ? 'call'
        : button.to !== undefined
          ? 'route'
          : button.dialog !== undefined
            ? 'dialog'
            : button.formDialog !== undefined
              ? 'formDialog'
              : undefined;
    if (plain) {
      return {
        name: button.action,
        kind: plain,
        label: button.label ?? button.action,
        confirm: button.confirm,
        danger: button.danger ?? false,
        roles: button.roles?.length ? [button.roles] : [],
        when: button.when ? parseExpression(button.when) : undefined,
        target: button.call ?? button.to ?? button.dialog ?? button.formDialog,
        done: button.done,
      };
    }
    const name = button.action;
    const kind = kindOf(name, inForm);
    const wf = kind === 'record' || kind === 'commit' ? workflowAction(resource, name) : kind === 'save' ? resource.workflow?.actions.save : undefined;
    const label = button.label ?? wf?.label ?? actionLabel(name) ?? name;
    // A screen button's empty `roles` restricts nothing; the workflow's is the server's rule (roleMayRun).
    const roles = [button.roles?.length ? button.roles : undefined, wf?.roles].filter((r): r is string[] => Array.isArray(r));
    const from = kind === 'edit' || kind === 'save' ? editableStates(resource.workflow) : wf && !wf.from.includes('*') ? wf.from : undefined;
    const opinion = kind === 'record' ? wf?.opinion : undefined;
    const input = kind === 'record' && wf?.input?.length ? wf.input : undefined;
    // The server checks the save of an edit, and the save then the commit of a form's commit.
    const saveRoles = resource.workflow?.actions.save?.roles ?? [];
    const overseers =
      kind === 'record'
        ? (wf?.roles ?? [])
        : kind === 'commit'
          ? saveRoles.filter((r) => wf?.roles?.includes(r))
          : kind === 'edit' || kind === 'save'
            ? saveRoles
            : undefined;
    const explicit = button.confirm ?? wf?.confirm;
    const confirm = opinion || input ? undefined : (explicit ?? (kind === 'record' ? `确定要${label}该记录吗？` : undefined));
    return {
      name,
      kind,
      label,
      confirm,
      opinion,
      input,
      danger: button.danger ?? DANGER.has(name),
      roles,
      when: button.when ? parseExpression(button.when) : undefined,
      from,
      overseers,
    };
  });
}

/**
 * Whether a record just saved can still be saved again (its workflow state allows a save). A reply
 * without the state counts as editable after a plain save and as moved on after a commit.
 */
export function editableAfterSave(resource: Pick<Resource, 'workflow'>, saved: Record<string, unknown>, committed: boolean): boolean {
  if (saved.status === undefined || saved.status === null) return !committed || !resource.workflow;
  return allowedInState(editableStates(resource.workflow), saved.status);
}

/** Whether an action is offered for a record (add mode: `record` is undefined and only non-record checks apply). */
export function isAvailable(action: ResolvedAction, record: Record<string, unknown> | undefined, context: ActionContext): boolean {
  if (!action.roles.every((roles) => roleMayRun({ roles: [...roles] }, context.roleType))) return false;
  if (record && !allowedInState(action.from, record.status)) return false;
  if (record && action.overseers && context.owns && !context.owns(record) && !mayRunOnOverseen({ roles: [...action.overseers] }, context.roleType))
    return false;
  if (action.when) return holds(action.when, { ...record, $roleType: context.roleType, $mode: context.mode });
  return true;
}

/** Where an `open` action goes for a row: the row itself, or a new record taking the row's values (newWith). */
export function openTarget(action: ResolvedAction, row: Record<string, unknown>): { mode?: 'add'; id?: string; values?: Record<string, string> } {
  if (!action.newWith) return { id: String(row.id) };
  const values: Record<string, string> = {};
  for (const [field, from] of Object.entries(action.newWith))
    if (from && row[from] !== undefined && row[from] !== null && row[from] !== '') values[field] = String(row[from]);
  return { mode: 'add', values };
}
