/**
 * The server's catalogue validates resources against their meta-schema once per set of texts: a
 * mark under the cache directory lets an unchanged start skip the compile, and any changed byte
 * is validated again, so a broken file is never let through by an earlier mark.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/server/resources/catalog';

const resource = (type: string) =>
  JSON.stringify({ $schema: '../meta/resource.schema.json', name: 'note', table: 'note', title: '便签', fields: { title: { type, label: '标题' } } });

describe('the catalogue’s validation mark', () => {
  const root = mkdtempSync(join(tmpdir(), 'portal-catalog-'));
  const schemaDir = join(root, 'schemas');
  const cacheDir = join(root, 'cache');
  const file = join(schemaDir, 'resources', 'note.json');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const marks = () => readdirSync(cacheDir).filter((f) => f.startsWith('resources-valid-'));

  it('marks texts that passed, and keeps one mark', () => {
    mkdirSync(join(schemaDir, 'resources'), { recursive: true });
    writeFileSync(file, resource('string'));
    expect(loadCatalog(schemaDir, { cacheDir }).resources.map((r) => r.name)).toEqual(['note']);
    expect(marks()).toHaveLength(1);
    writeFileSync(file, resource('text'));
    loadCatalog(schemaDir, { cacheDir });
    expect(marks()).toHaveLength(1);
  });

  it('validates a changed file again and refuses it despite the earlier mark', () => {
    writeFileSync(file, resource('nonsense'));
    expect(() => loadCatalog(schemaDir, { cacheDir })).toThrow(/note\.json is not a valid resource/);
    // The refused texts leave no mark: the next start refuses them too.
    expect(() => loadCatalog(schemaDir, { cacheDir })).toThrow(/not a valid resource/);
    writeFileSync(file, resource('text'));
    expect(loadCatalog(schemaDir, { cacheDir }).resources[0].fields.title?.type).toBe('text');
  });
});
