/**
 * The schema reference (schemas/meta/README.md) is generated from the meta-schemas and kept
 * current: every keyword says where it is enforced, and the file equals what the generator makes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENFORCEMENT, enforcementOf, generateReference, META_DIR, readReference, REFERENCE_FILE, unmarkedKeywords } from '../../scripts/gen-docs';

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Subschemas that test or constrain a value; their `properties` are conditions, not keywords. */
const CONDITIONS = new Set(['if', 'then', 'else', 'not', 'dependentRequired', 'dependentSchemas', 'propertyNames', 'contains']);

/**
 * Every keyword of a meta-schema, found by walking the whole file (root, `$defs`, nested objects and
 * unions) rather than by following references from the root as the generator does, so a definition
 * the generator never reaches is held to the same rule: `pointer` → its description, its own or,
 * when it has none, that of the definition its `$ref` names.
 */
function keywordsOf(schema: Node): Map<string, string | undefined> {
  const resolve = (ref: string): Node => {
    const node =
      ref === '#'
        ? schema
        : ref
            .slice(2)
            .split('/')
            .reduce<unknown>((n, key) => (isObject(n) ? n[key] : undefined), schema);
    return isObject(node) ? node : {};
  };
  const out = new Map<string, string | undefined>();
  const walk = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!isObject(node)) return;
    if (isObject(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        let description = isObject(property) && typeof property.description === 'string' ? property.description : undefined;
        const seen = new Set<string>();
        for (let p = isObject(property) ? property : {}; description === undefined && typeof p.$ref === 'string' && !seen.has(p.$ref);) {
          seen.add(p.$ref);
          p = resolve(p.$ref);
          if (typeof p.description === 'string') description = p.description;
        }
        out.set(`${pointer}/properties/${name}`, description);
      }
    }
    for (const [key, child] of Object.entries(node)) if (!CONDITIONS.has(key)) walk(child, `${pointer}/${key}`);
  };
  walk(schema, '#');
  return out;
}

const metaSchemas = readdirSync(META_DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .sort();

describe('the schema reference', () => {
  const docs = readReference();

  it('documents every kind of schema file with its keywords', () => {
    expect(docs.map((d) => d.kind)).toEqual(['resource', 'screen', 'dict', 'menu']);
    for (const doc of docs) expect(doc.objects.flatMap((o) => o.properties).length, doc.kind).toBeGreaterThan(5);
  });

  it('says for every keyword it documents where it is enforced', () => {
    expect(unmarkedKeywords(docs)).toEqual([]);
    for (const doc of docs)
      for (const o of doc.objects) for (const p of o.properties) expect(ENFORCEMENT, `${doc.kind} ${o.title}.${p.name}`).toContain(p.enforced);
  });

  it.each(metaSchemas)('%s: every keyword anywhere in the file (properties and $defs) ends with an enforcement marker', (file) => {
    const keywords = keywordsOf(JSON.parse(readFileSync(join(META_DIR, file), 'utf8')) as Node);
    expect(keywords.size).toBeGreaterThan(5);
    const unmarked = [...keywords].filter(([, description]) => !enforcementOf(description)).map(([pointer]) => pointer);
    expect(unmarked).toEqual([]);
  });

  it('is the generated file (npm run gen:docs after a meta-schema change)', () => {
    expect(readFileSync(REFERENCE_FILE, 'utf8')).toBe(generateReference());
  });
});

describe('the check of the markers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'schema-reference-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'sample.schema.json'),
    JSON.stringify({
      title: 'Sample',
      type: 'object',
      additionalProperties: false,
      properties: {
        marked: { type: 'string', description: 'Shown by the browser. (enforced: browser)' },
        unmarked: { type: 'string', description: 'Says nowhere where it acts.' },
        bare: { type: 'string' },
        unknownPlace: { type: 'string', description: 'A place not in the list. (enforced: somewhere)' },
        shared: { $ref: '#/$defs/code', description: '(enforced: server)' },
        inherited: { $ref: '#/$defs/code' },
        nested: { $ref: '#/$defs/nested', description: 'An object. (enforced: browser and server)' },
      },
      if: { properties: { marked: { const: 'x' } }, required: ['marked'] },
      then: { required: ['bare'] },
      $defs: {
        code: { title: 'Code', type: 'string', description: 'A stored code. (enforced: lint only)' },
        nested: { type: 'object', properties: { deep: { type: 'integer' }, fine: { type: 'integer', description: 'Counted. (enforced: server)' } } },
      },
    }),
  );
  const docs = readReference(dir, join(dir, 'no-files'));
  const sample = docs[0].objects.find((o) => o.title === 'Sample')!;
  const keyword = (name: string) => sample.properties.find((p) => p.name === name)!;

  it('reports every keyword without a known marker, nested ones included', () => {
    expect(unmarkedKeywords(docs)).toEqual(['sample Sample.unmarked', 'sample Sample.bare', 'sample Sample.unknownPlace', 'sample nested.deep']);
  });

  it('takes a marker-only description next to a $ref as the place, with the definition’s text', () => {
    expect(keyword('shared')).toMatchObject({ enforced: 'server', description: 'A stored code.' });
    expect(keyword('inherited')).toMatchObject({ enforced: 'lint only', description: 'A stored code.' });
    expect(keyword('marked')).toMatchObject({ enforced: 'browser', description: 'Shown by the browser.' });
  });

  it('finds the same unmarked keywords by walking the whole file', () => {
    const keywords = keywordsOf(JSON.parse(readFileSync(join(dir, 'sample.schema.json'), 'utf8')) as Node);
    const unmarked = [...keywords].filter(([, d]) => !enforcementOf(d)).map(([pointer]) => pointer);
    expect(unmarked).toEqual(['#/properties/unmarked', '#/properties/bare', '#/properties/unknownPlace', '#/$defs/nested/properties/deep']);
  });

  it('shows the missing marker as a dash in the reference', () => {
    const text = generateReference(dir, join(dir, 'no-files'));
    expect(text).toContain('| `unmarked` | string | no | — | Says nowhere where it acts. |');
    expect(text).toContain('| `shared` | [Code](#sample-value-code) | no | server | A stored code. |');
  });
});
