import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../src/schema/types';
import { analyzeWorkflow } from '../../src/schema/workflow';

const states = (...codes: string[]) => codes.map((code) => ({ code, label: code })) as Workflow['states'];

/** draft -> submitted -> approved | returned -> submitted, the usual audit loop. */
const audit: Workflow = {
  states: states('draft', 'submitted', 'approved', 'returned'),
  initial: 'draft',
  finals: ['approved'],
  actions: {
    save: { from: ['draft', 'returned'] },
    commit: { from: ['draft', 'returned'], to: 'submitted' },
    revoke: { from: ['submitted'], to: 'draft' },
    delete: { from: ['draft'] },
    'audit-agree': { from: ['submitted'], to: 'approved', roles: ['authority'] },
    'audit-disagree': { from: ['submitted'], to: 'returned', roles: ['authority'], opinion: 'required' },
  },
};

const summary = (workflow: Workflow) => analyzeWorkflow(workflow).map((i) => `${i.code} ${i.path.join('.')}: ${i.message}`);

describe('workflow graph checks', () => {
  it('accepts the audit loop', () => {
    expect(summary(audit)).toEqual([]);
  });

  it('reports a state nothing leads to', () => {
    const workflow = { ...audit, states: states('draft', 'submitted', 'approved', 'returned', 'archived') };
    expect(summary(workflow)).toEqual(["workflow-unreachable states.4: state 'archived' cannot be reached from the initial state 'draft'"]);
  });

  it('reports a non-final state without a way out, and loops that never finish', () => {
    const workflow: Workflow = {
      states: states('a', 'b', 'c', 'stuck', 'end'),
      initial: 'a',
      finals: ['end'],
      actions: {
        go: { from: ['a'], to: 'b' },
        loop: { from: ['b'], to: 'c' },
        back: { from: ['c'], to: 'b' },
        park: { from: ['a'], to: 'stuck' },
        finish: { from: ['a'], to: 'end' },
        save: { from: ['stuck'] },
      },
    };
    expect(summary(workflow)).toEqual([
      "workflow-dead-end states.1: no final state can be reached from state 'b'",
      "workflow-dead-end states.2: no final state can be reached from state 'c'",
      "workflow-dead-end states.3: state 'stuck' is a dead end: no action leads out of it and it is not final",
    ]);
  });

  it('does not count an action that keeps the state (save) or removes the row (delete) as a way out', () => {
    const workflow: Workflow = {
      states: states('draft', 'done'),
      initial: 'draft',
      finals: ['done'],
      actions: { save: { from: ['draft'] }, delete: { from: ['draft'] } },
    };
    expect(summary(workflow)).toEqual([
      "workflow-dead-end states.0: state 'draft' is a dead end: no action leads out of it and it is not final",
      "workflow-unreachable states.1: state 'done' cannot be reached from the initial state 'draft'",
    ]);
  });

  it('reports an action leaving a final state', () => {
    const workflow = { ...audit, actions: { ...audit.actions, reopen: { from: ['returned', 'approved'], to: 'draft' } } } as Workflow;
    expect(summary(workflow)).toEqual(["workflow-final actions.reopen.from.1: action 'reopen' leaves the final state 'approved'"]);
  });

  it('reports unknown and duplicate states, and skips the graph checks until they resolve', () => {
    const workflow: Workflow = {
      states: states('draft', 'done', 'draft'),
      initial: 'new',
      finals: ['done', 'closed'],
      actions: { commit: { from: ['draft', 'drafted'], to: 'don' } },
    };
    expect(summary(workflow)).toEqual([
      "workflow-state states.2.code: duplicate state 'draft'",
      "workflow-state initial: unknown state 'new' in initial",
      "workflow-state finals.1: unknown state 'closed' in finals",
      "workflow-state actions.commit.from.1: unknown state 'drafted' in the 'from' of action 'commit'",
      "workflow-state actions.commit.to: unknown state 'don' in the 'to' of action 'commit'",
    ]);
  });

  it('accepts a workflow whose initial state is final', () => {
    expect(summary({ states: states('only'), initial: 'only', finals: ['only'], actions: { save: { from: ['only'] } } })).toEqual([]);
  });
});
