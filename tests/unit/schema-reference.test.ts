/**
 * The schema reference (schemas/meta/README.md) is generated from the meta-schemas and kept
 * current: every keyword says where it is enforced, and the file equals what the generator makes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { enforcementOf, generateReference, readReference, REFERENCE_FILE, unmarkedKeywords } from '../../scripts/gen-docs';

describe('the schema reference', () => {
  const docs = readReference();

  it('documents every kind of schema file with its keywords', () => {
    expect(docs.map((d) => d.kind)).toEqual(['resource', 'screen', 'dict', 'menu']);
    for (const doc of docs) expect(doc.objects.flatMap((o) => o.properties).length, doc.kind).toBeGreaterThan(5);
  });

  it('says for every keyword where it is enforced', () => {
    expect(unmarkedKeywords(docs)).toEqual([]);
  });

  it('finds a keyword without a marker', () => {
    const [first] = docs;
    const property = first.objects[0].properties[0];
    const broken = [{ ...first, objects: [{ ...first.objects[0], properties: [{ ...property, enforced: enforcementOf('no marker here') }] }] }];
    expect(unmarkedKeywords(broken)).toEqual([`${first.kind} ${first.objects[0].title}.${property.name}`]);
  });

  it('is the generated file (npm run gen:docs after a meta-schema change)', () => {
    expect(readFileSync(REFERENCE_FILE, 'utf8')).toBe(generateReference());
  });
});
