/**
 * The repository stands alone: no text in it may send a reader to documents or tracker numbers that
 * are not here — the product's reference texts (the .md files named in DEAD below, or the folder
 * they lived in) or a work-item number ("issue 14", "issue #14"), nor a section sign of those texts
 * (§7). Behaviour is described in the project's own words instead. README.md, docs/, the schemas and every
 * source, script, validator and test file are read.
 *
 * Every relative link of README.md and docs/ must also name a file that exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const SELF = 'tests/unit/no-dead-references.test.ts';

/** The patterns of a dead reference, each with what it stands for in a failure message. */
const DEAD: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /\b(?:SPEC|DESIGN|DOMAIN)\.md\b/, what: 'a reference text' },
  { pattern: /\bSPEC\b/, what: 'the specification by name' },
  { pattern: /(?:\.\.\/|\/work\/)shared\/(?:SPEC|DESIGN|DOMAIN)|\/work\/shared\b/, what: "the reference texts' folder" },
  { pattern: /\b[Ii]ssues? #?\d+/, what: 'a work-item number' },
  { pattern: /§\s?\d/, what: 'a section of a reference text' },
];

const SCANNED_DIRS = ['src', 'schemas', 'validators', 'scripts', 'tests', 'docs'];
const TEXT = /\.(?:ts|tsx|mts|mjs|cjs|js|json|css|md|txt|html|sql|sh|yml|yaml|cfg|example)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.cache', 'test-results']);

function walk(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) walk(path, into);
    } else if (TEXT.test(name)) into.push(path);
  }
  return into;
}

const files = ['README.md', ...SCANNED_DIRS.filter((d) => existsSync(join(ROOT, d))).flatMap((d) => walk(d))].filter((f) => f !== SELF);

/** `file:line: text — what` for every dead reference of a file. */
function deadReferences(file: string): string[] {
  const found: string[] = [];
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      for (const { pattern, what } of DEAD) {
        if (pattern.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 140)} — ${what}`);
      }
    });
  return found;
}

describe('no dead references', () => {
  it('scans the README, docs, sources, scripts, validators and tests', () => {
    expect(files).toContain('README.md');
    expect(files.some((f) => f.startsWith('docs/'))).toBe(true);
    expect(files.some((f) => f.startsWith('src/server/'))).toBe(true);
    expect(files.some((f) => f.startsWith('tests/api/'))).toBe(true);
  });

  it('finds a reference of each kind (the patterns work)', () => {
    const samples = ['see DOMAIN.md', 'SPEC says', 'in ../shared/DESIGN.md', 'fixed in issue 18', 'issue #7', 'as §2 says'];
    for (const sample of samples)
      expect(
        DEAD.some(({ pattern }) => pattern.test(sample)),
        sample,
      ).toBe(true);
    const fine = ['SPEC_PATHS', 'DOMAIN = /x/', "import '../shared/dates'", 'github.com/o/r/issues/40075', 'its issue date'];
    for (const sample of fine)
      expect(
        DEAD.some(({ pattern }) => pattern.test(sample)),
        sample,
      ).toBe(false);
  });

  it('no file names a reference text or a work-item number', () => {
    const offenders = files.flatMap(deadReferences);
    expect(offenders, `rewrite these in the project's own words:\n${offenders.join('\n')}`).toEqual([]);
  });
});

describe('relative links of README.md and docs/', () => {
  const documents = files.filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));

  /** Every link target of a Markdown text: inline links and images, without titles or anchors. */
  function links(text: string): string[] {
    const targets: string[] = [];
    for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]);
    for (const match of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) targets.push(match[1]);
    return targets;
  }

  it('finds the documents and their links', () => {
    expect(documents.length).toBeGreaterThan(3);
    expect(links('a [b](c.md#d) and ![e](f.png "t") and [g](https://x.cn)')).toEqual(['c.md#d', 'f.png', 'https://x.cn']);
  });

  it('every relative link resolves to a file', () => {
    const broken: string[] = [];
    for (const doc of documents) {
      for (const target of links(readFileSync(join(ROOT, doc), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const path = decodeURI(target.split('#')[0]);
        const absolute = resolve(ROOT, dirname(doc), path);
        if (!existsSync(absolute)) broken.push(`${doc}: ${target} (${relative(ROOT, absolute)})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
