/**
 * The lint of an open screen's `proof` and of a list's `rowOpens` (src/schema/checks/screens.ts
 * checkProof): a token proof goes with a `source` and names token, param and key, a record proof
 * (a detail's) with none of them, its items name its own fields (an `sms` item sends for them too),
 * a proof taken `of` another screen is that screen's own, a detail's `embed` is an open form, and
 * a list opening rows by a click has a detail. Also how a screen bundle takes another's proof.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULE_NAMES } from '../../scripts/rule-names';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import type { Screen, SchemaText } from '../../src/schema/types';
import { loadScreenBundle, memoryRegistry } from '../../src/engine/registry/registry';

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

const OPEN_FORM: SchemaText = {
  path: 'screens/note-fix.json',
  text: json({
    $schema: '../meta/screen.schema.json',
    id: 'note-fix',
    kind: 'form',
    resource: 'note',
    title: '修改便笺',
    sections: [{ fields: ['title'] }],
    submit: { path: '/a/fix', success: '/notes' },
  }),
};

/** Lint errors of the screen `id` (note-list, a list; note-detail, a detail) given `extra`, besides the files above. */
function lintErrors(id: 'note-list' | 'note-detail', extra: Record<string, unknown>, more: SchemaText[] = []): string[] {
  const base =
    id === 'note-list'
      ? { id, kind: 'list', resource: 'note', title: '便笺', columns: ['title'] }
      : { id, kind: 'detail', resource: 'note', title: '便笺', sections: [{ fields: ['title'] }] };
  const screen: SchemaText = { path: `screens/${id}.json`, text: json({ $schema: '../meta/screen.schema.json', ...base, ...extra }) };
  const files = [...FILES.filter((f) => f.path !== screen.path), ...more, screen];
  return lintFiles(files, { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES })
    .errors.filter((e) => e.file === screen.path)
    .map((e) => `${e.code}: ${e.message}`);
}
const errors = (list: Record<string, unknown>) => lintErrors('note-list', list);
const RECORD_PROOF = { fields: PROOF.fields, items: PROOF.items, path: '/a/find', record: 'application', flowLog: 'log' };

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

describe('a detail whose proof replies with the record', () => {
  it('takes a record proof without source or token, and an open form to embed', () => {
    expect(lintErrors('note-detail', { proof: RECORD_PROOF, flowLog: true, embed: { screen: 'note-fix', when: "title === 'x'" } }, [OPEN_FORM])).toEqual([]);
  });

  it('refuses a record proof with a token or a source, and a record proof on a list', () => {
    expect(lintErrors('note-detail', { proof: { ...RECORD_PROOF, token: 'access' }, source: { get: '/a/note' } })).toEqual([
      expect.stringMatching(/^screen-link: a proof whose reply is the record has no token/),
    ]);
    expect(errors({ proof: { ...RECORD_PROOF, flowLog: undefined } })).toEqual([
      expect.stringMatching(/^screen-link: a proof's 'record' is the record a detail screen shows/),
    ]);
  });

  it('refuses a token proof missing its key, and a flowLog without a record', () => {
    expect(errors({ source: { list: '/a/notes' }, proof: { ...PROOF, keep: undefined, flowLog: 'log' } })).toEqual([
      expect.stringMatching(/^screen-link: a proof names its reply's 'token'/),
      expect.stringMatching(/^screen-link: a proof's 'flowLog' is the log of its 'record'/),
    ]);
  });

  it('refuses to embed what is not an open form', () => {
    expect(lintErrors('note-detail', { embed: { screen: 'note-detail' } })).toEqual([
      expect.stringMatching(/^screen-link: 'embed' shows an open form .*'note-detail' is not one/),
    ]);
    expect(lintErrors('note-detail', { embed: { screen: 'nope' } })).toEqual([expect.stringMatching(/^unknown-screen: no screen 'nope'/)]);
  });
});

describe("another screen's proof", () => {
  const LIST_WITH_PROOF: SchemaText = {
    path: 'screens/note-list.json',
    text: json({
      $schema: '../meta/screen.schema.json',
      id: 'note-list',
      kind: 'list',
      resource: 'note',
      title: '便笺',
      columns: ['title'],
      source: { list: '/a/notes' },
      proof: PROOF,
    }),
  };

  it('takes the proof of a screen that has one, and refuses one that has none', () => {
    expect(lintErrors('note-detail', { source: { get: '/a/note' }, proof: { of: 'note-list' } }, [LIST_WITH_PROOF])).toEqual([]);
    expect(lintErrors('note-detail', { source: { get: '/a/note' }, proof: { of: 'note-fix' } }, [OPEN_FORM])).toEqual([
      expect.stringMatching(/^screen-link: proof of 'note-fix': no screen of that id with a proof of its own/),
    ]);
  });

  it('is resolved into the bundle, with the links the screen gives', async () => {
    const note = JSON.parse(FILES[0].text) as never;
    const list = JSON.parse(LIST_WITH_PROOF.text) as Screen;
    const detail = { id: 'note-detail', kind: 'detail', resource: 'note', title: '便笺', sections: [{ fields: ['title'] }], source: { get: '/a/note' } };
    const links = [{ label: '返回列表', route: '/notes' }];
    const registry = memoryRegistry({
      resources: [note],
      screens: [list, { ...detail, proof: { of: 'note-list', links } } as Screen, { ...detail, id: 'bare', proof: { of: 'note-list' } } as Screen],
    });
    const withLinks = (await loadScreenBundle(registry, 'note-detail')).screen as { proof?: unknown };
    expect(withLinks.proof).toEqual({ ...PROOF, links });
    expect(((await loadScreenBundle(registry, 'bare')).screen as { proof?: unknown }).proof).toEqual(PROOF);
  });
});
