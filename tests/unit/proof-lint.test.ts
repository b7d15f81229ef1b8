/**
 * The lint of an open screen's `proof` and of a list's `rowOpens` (src/schema/checks/screens.ts
 * checkProof): a proof goes with a `source`, its items name its own fields (an `sms` item sends
 * for them too), and a list opening rows by a click has a detail.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULE_NAMES } from '../../scripts/rule-names';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import type { SchemaText } from '../../src/schema/types';

const metaDir = join(fileURLToPath(new URL('../..', import.meta.url)), 'schemas/meta');

const json = (value: unknown) => JSON.stringify(value, null, 2);
const FILES: SchemaText[] = [
  {
    path: 'resources/note.json',
    text: json({ $schema: '../meta/resource.schema.json', name: 'note', table: 'note', title: '便笺', fields: { title: { type: 'string', label: '标题' } } }),
  },
  {
    path: 'screens/note-detail.json',
    text: json({
      $schema: '../meta/screen.schema.json',
      id: 'note-detail',
      kind: 'detail',
      resource: 'note',
      title: '便笺',
      sections: [{ fields: ['title'] }],
    }),
  },
  {
    path: 'menu.json',
    text: json({
      $schema: './meta/menu.schema.json',
      public: [
        { path: '/notes', name: 'notes', title: '便笺', screen: 'note-list' },
        { path: '/note', name: 'note', title: '便笺', screen: 'note-detail' },
      ],
      routes: [],
    }),
  },
];

const PROOF = {
  fields: { mobile: { type: 'string', label: '手机号码' }, code: { type: 'string', label: '验证码' } },
  items: ['mobile', { field: 'code', sms: { send: '/a/sms', fields: ['mobile'] } }],
  path: '/a/login',
  token: 'access',
  param: 'access',
  keep: 'notes.access',
};

const errors = (list: Record<string, unknown>): string[] => {
  const screen: SchemaText = {
    path: 'screens/note-list.json',
    text: json({ $schema: '../meta/screen.schema.json', id: 'note-list', kind: 'list', resource: 'note', title: '便笺', columns: ['title'], ...list }),
  };
  return lintFiles([...FILES, screen], { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES })
    .errors.filter((e) => e.file === 'screens/note-list.json')
    .map((e) => `${e.code}: ${e.message}`);
};

describe('an open screen with a proof', () => {
  it('takes a proof over a source whose items are its own fields, and rows opening the detail', () => {
    expect(errors({ source: { list: '/a/notes' }, proof: PROOF, rowOpens: true, detail: 'note-detail' })).toEqual([]);
  });

  it('refuses a proof without a source', () => {
    expect(errors({ proof: PROOF })).toEqual([expect.stringMatching(/^screen-link: a 'proof' goes with a 'source'/)]);
  });

  it('refuses items and sms fields that are not fields of the proof', () => {
    const proof = { ...PROOF, items: ['mobile', 'title', { field: 'code', sms: { send: '/a/sms', fields: ['phone'] } }] };
    expect(errors({ source: { list: '/a/notes' }, proof })).toEqual([
      expect.stringMatching(/^unknown-field: proof item 'title'/),
      expect.stringMatching(/^unknown-field: sms field 'phone'/),
    ]);
  });

  it('refuses rowOpens on a list without a detail', () => {
    expect(errors({ rowOpens: true })).toEqual([expect.stringMatching(/^screen-link: 'rowOpens' opens a row's detail/)]);
  });
});
