/**
 * Checks of a workflow as a graph: states are nodes, an action with a `to` state is an edge from
 * each of its `from` states. A sound workflow has every state reachable from `initial`, a way from
 * every state to an end state, and no way out of an end state. Linear in states + edges.
 */
import type { JsonPath, Target } from './json-source';
import type { Workflow } from './types';

export type WorkflowCode = 'workflow-state' | 'workflow-unreachable' | 'workflow-dead-end' | 'workflow-final';

/** A problem of a workflow; `path` is relative to the workflow object. */
export interface WorkflowIssue {
  code: WorkflowCode;
  path: JsonPath;
  target: Target;
  message: string;
}

interface Edge {
  from: string;
  to: string;
  action: string;
  /** Index of `from` in the action's `from` list, to point at it. */
  fromIndex: number;
}

/** All problems of a workflow. Graph checks run only once every state reference resolves. */
export function analyzeWorkflow(workflow: Workflow): WorkflowIssue[] {
  const referenceIssues = checkReferences(workflow);
  return referenceIssues.length > 0 ? referenceIssues : checkGraph(workflow);
}

function checkReferences(workflow: Workflow): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const states = new Set<string>();
  workflow.states.forEach((state, i) => {
    if (states.has(state.code)) issues.push(issue('workflow-state', ['states', i, 'code'], `duplicate state '${state.code}'`));
    states.add(state.code);
  });
  const known = (code: string, path: JsonPath, where: string) => {
    if (!states.has(code)) issues.push(issue('workflow-state', path, `unknown state '${code}' in ${where}`));
  };
  known(workflow.initial, ['initial'], 'initial');
  workflow.finals.forEach((code, i) => known(code, ['finals', i], 'finals'));
  for (const [name, action] of actionEntries(workflow)) {
    action.from.forEach((code, i) => known(code, ['actions', name, 'from', i], `the 'from' of action '${name}'`));
    if (action.to !== undefined) known(action.to, ['actions', name, 'to'], `the 'to' of action '${name}'`);
  }
  return issues;
}

function checkGraph(workflow: Workflow): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const finals = new Set(workflow.finals);
  const edges: Edge[] = actionEntries(workflow).flatMap(([action, a]) =>
    a.to === undefined ? [] : a.from.map((from, fromIndex) => ({ from, to: a.to!, action, fromIndex })).filter((e) => e.from !== e.to),
  );
  const outgoing = groupBy(edges, (e) => e.from);
  const incoming = groupBy(edges, (e) => e.to);

  for (const edge of edges) {
    if (finals.has(edge.from)) {
      issues.push(issue('workflow-final', ['actions', edge.action, 'from', edge.fromIndex], `action '${edge.action}' leaves the final state '${edge.from}'`));
    }
  }

  const reachable = closure([workflow.initial], (s) => (outgoing.get(s) ?? []).map((e) => e.to));
  const canFinish = closure(workflow.finals, (s) => (incoming.get(s) ?? []).map((e) => e.from));
  workflow.states.forEach((state, i) => {
    if (!reachable.has(state.code)) {
      issues.push(issue('workflow-unreachable', ['states', i], `state '${state.code}' cannot be reached from the initial state '${workflow.initial}'`));
    } else if (!finals.has(state.code) && !canFinish.has(state.code)) {
      const message = outgoing.has(state.code)
        ? `no final state can be reached from state '${state.code}'`
        : `state '${state.code}' is a dead end: no action leads out of it and it is not final`;
      issues.push(issue('workflow-dead-end', ['states', i], message));
    }
  });
  return issues;
}

function issue(code: WorkflowCode, path: JsonPath, message: string): WorkflowIssue {
  return { code, path, target: 'value', message };
}

function actionEntries(workflow: Workflow) {
  return Object.entries(workflow.actions).filter((entry): entry is [string, NonNullable<(typeof entry)[1]>] => entry[1] !== undefined);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** Every node reachable from the starts by `next` (breadth first). */
function closure(starts: readonly string[], next: (node: string) => string[]): Set<string> {
  const seen = new Set(starts);
  const queue = [...starts];
  for (let i = 0; i < queue.length; i++) {
    for (const n of next(queue[i])) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return seen;
}
