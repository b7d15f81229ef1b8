/**
 * Generates schemas/meta/README.md, the reference of the schema files, from:
 *
 * - the meta-schemas (schemas/meta/*.schema.json): per file kind and per object type, every keyword
 *   with its description, type or allowed values, whether it is required (conditional requirements
 *   included) and where it is enforced;
 * - the real files under schemas/: one short example per object type;
 * - the validation catalogue (validators/index.ts): the rule names with their messages.
 *
 * and docs/schema-history.md: per resource, the evolution it declares (renames, conversions,
 * retired fields, dropped columns: src/schema/evolution.ts).
 *
 * Where a keyword is enforced is data of the meta-schemas: its description (or, for a bare `$ref`,
 * the referenced definition's) ends with one of the ENFORCEMENT markers, e.g.
 * "(enforced: browser and server)". A `$ref` to a shared definition may carry a description that is
 * only the marker: the reference then shows the definition's text with that marker. The marker shows
 * in editors' hovers too; the reference puts it in its own column. `--check` and
 * tests/unit/schema-reference.test.ts fail for a keyword without one.
 *
 *   tsx scripts/gen-docs.ts           write the file
 *   tsx scripts/gen-docs.ts --check   exit 1 when it is missing or stale
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { declaredEvolution } from '../src/schema/evolution';
import { kindOf } from '../src/schema/lint';
import type { Resource } from '../src/schema/types';
import { readSchemaTexts } from '../src/schema/node';
import { messages, ruleNames } from '../validators';
import { parseCommandLine } from '../src/server/command-line.mjs';
import { CONFIGURATION_PATH, withSettingsTable } from './settings-doc';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SCHEMA_DIR = join(root, 'schemas');
export const META_DIR = join(SCHEMA_DIR, 'meta');
export const REFERENCE_FILE = join(META_DIR, 'README.md');
/** The reference's path as messages and the README name it. */
export const REFERENCE_PATH = 'schemas/meta/README.md';

/** Where a keyword is enforced, as its description ends: `(enforced: <one of these>)`. */
export const ENFORCEMENT = ['browser', 'server', 'browser and server', 'lint only'] as const;
export type Enforcement = (typeof ENFORCEMENT)[number];
const MARKER = /\s*\(enforced: ([a-z ]+)\)\s*$/;

/** The enforcement marker at the end of a description, if it names a known place. */
export function enforcementOf(description: unknown): Enforcement | undefined {
  if (typeof description !== 'string') return undefined;
  const place = MARKER.exec(description)?.[1];
  return (ENFORCEMENT as readonly string[]).includes(place ?? '') ? (place as Enforcement) : undefined;
}

/** A description without its enforcement marker. */
export const withoutMarker = (description: string): string => description.replace(MARKER, '');

/** Where the files of each kind live; a kind not listed here is documented without a location. */
const LOCATIONS: Readonly<Record<string, string>> = {
  resource: 'schemas/resources/<name>.json',
  screen: 'schemas/screens/<id>.json',
  dict: 'schemas/dicts/<name>.json',
  menu: 'schemas/menu.json',
};
/** Documentation order of the kinds; others follow by name. */
const KIND_ORDER = ['resource', 'screen', 'dict', 'menu'];

// ---------------------------------------------------------------------------------------------
// Reading the meta-schemas

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PropertyDoc {
  name: string;
  type: string;
  required: string;
  enforced: Enforcement | undefined;
  description: string;
}

export interface ObjectDoc {
  /** JSON pointer of the object's schema in its meta-schema (after $refs). */
  pointer: string;
  title: string;
  anchor: string;
  description: string;
  properties: PropertyDoc[];
  /** Where the object occurs: `Parent.property` links. */
  usedIn: string[];
  notes: string[];
  example?: { file: string; at: string; text: string };
}

export interface ValueTypeDoc {
  title: string;
  anchor: string;
  type: string;
  description: string;
}

export interface KindDoc {
  kind: string;
  file: string;
  title: string;
  description: string;
  location?: string;
  /** The file's alternatives when its root is a union (screen: one type per `kind`). */
  alternatives: string[];
  objects: ObjectDoc[];
  valueTypes: ValueTypeDoc[];
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const code = (s: string) => `\`${s}\``;
const json = (v: unknown) => code(JSON.stringify(v));
/** Text for a Markdown table cell: no line breaks, pipes escaped. */
const cell = (s: string) => s.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const list = (items: string[], last = 'or') => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`);

function at(schema: Schema, pointer: string): unknown {
  if (pointer === '#') return schema;
  return pointer
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined), schema);
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Builds the documentation model of one meta-schema. */
class KindReader {
  readonly objects = new Map<string, ObjectDoc>();
  private readonly valueTypes = new Map<string, ValueTypeDoc>();
  private readonly queue: { pointer: string; parent?: string }[] = [];

  constructor(
    readonly kind: string,
    readonly schema: Schema,
  ) {}

  /** The node a pointer names, following `$ref`s (local ones only), with the pointer it ends at. */
  resolve(pointer: string): { node: Schema; pointer: string } {
    let node = at(this.schema, pointer);
    const seen = new Set<string>();
    while (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#') && !seen.has(pointer)) {
      seen.add(pointer);
      pointer = node.$ref === '#' ? '#' : node.$ref;
      node = at(this.schema, pointer);
    }
    return { node: isObject(node) ? node : {}, pointer };
  }

  private isObjectType(node: Schema): boolean {
    return isObject(node.properties);
  }

  private titleOf(pointer: string, node: Schema): string {
    if (typeof node.title === 'string') return node.title;
    const segments = pointer.split('/');
    return segments[segments.length - 1] === '#'
      ? this.kind
      : segments.filter((s) => !['#', '$defs', 'properties', 'items', 'anyOf', 'oneOf'].includes(s) && !/^\d+$/.test(s)).join('.');
  }

  private objectLink(pointer: string): string {
    const doc = this.objects.get(pointer);
    return doc ? `[${doc.title}](#${doc.anchor})` : this.titleOf(pointer, this.resolve(pointer).node);
  }

  /** Registers an object type (and queues it for reading). */
  private noteObject(pointer: string, usedIn?: string): void {
    let doc = this.objects.get(pointer);
    if (!doc) {
      const { node } = this.resolve(pointer);
      const title = this.titleOf(pointer, node);
      doc = {
        pointer,
        title,
        anchor: `${this.kind}-${slug(title)}`,
        description: typeof node.description === 'string' ? withoutMarker(node.description) : '',
        properties: [],
        usedIn: [],
        notes: [],
      };
      this.objects.set(pointer, doc);
      this.queue.push({ pointer });
    }
    if (usedIn && !doc.usedIn.includes(usedIn)) doc.usedIn.push(usedIn);
  }

  /** Object types reachable from `pointer` through values (not through conditionals). */
  private reach(pointer: string, usedIn: string | undefined, depth = 0): void {
    if (depth > 12) return;
    const { node, pointer: target } = this.resolve(pointer);
    if (this.isObjectType(node)) return this.noteObject(target, usedIn);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
      const branches = node[key];
      if (Array.isArray(branches)) branches.forEach((_, i) => this.reach(`${target}/${key}/${i}`, usedIn, depth + 1));
    }
    if (isObject(node.items)) this.reach(`${target}/items`, usedIn, depth + 1);
    if (isObject(node.additionalProperties)) this.reach(`${target}/additionalProperties`, usedIn, depth + 1);
  }

  read(): KindDoc {
    const { node: rootNode } = this.resolve('#');
    const alternatives: string[] = [];
    if (this.isObjectType(rootNode)) this.noteObject('#');
    else {
      this.reach('#', undefined);
      alternatives.push(...[...this.objects.values()].map((o) => o.pointer));
    }
    while (this.queue.length > 0) {
      const { pointer } = this.queue.shift()!;
      this.readObject(pointer);
    }
    // Links to alternatives are made once every object has its title.
    return {
      kind: this.kind,
      file: `${this.kind}.schema.json`,
      title: typeof rootNode.title === 'string' ? rootNode.title : this.kind,
      description: typeof rootNode.description === 'string' ? withoutMarker(rootNode.description) : '',
      location: LOCATIONS[this.kind],
      alternatives: alternatives.map((p) => {
        const tag = this.discriminatorTag(rootNode);
        const value = tag ? this.resolve(p).node.properties : undefined;
        const constant = isObject(value) && isObject(value[tag!]) ? (value[tag!] as Schema).const : undefined;
        return constant === undefined ? this.objectLink(p) : `${this.objectLink(p)} (${code(tag!)}: ${json(constant)})`;
      }),
      objects: [...this.objects.values()],
      valueTypes: [...this.valueTypes.values()].sort((a, b) => a.title.localeCompare(b.title)),
    };
  }

  private discriminatorTag(node: Schema): string | undefined {
    const d = node.discriminator;
    return isObject(d) && typeof d.propertyName === 'string' ? d.propertyName : undefined;
  }

  private readObject(pointer: string): void {
    const doc = this.objects.get(pointer)!;
    const { node } = this.resolve(pointer);
    const properties = node.properties as Record<string, unknown>;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const conditions = this.conditionalRequirements(node);
    const dependent = isObject(node.dependentRequired) ? (node.dependentRequired as Record<string, string[]>) : {};
    for (const name of Object.keys(properties)) {
      const propPointer = `${pointer}/properties/${escapePointer(name)}`;
      const prop = isObject(properties[name]) ? properties[name] : {};
      this.reach(propPointer, `${this.objectLink(pointer)}.${code(name)}`);
      const description = this.descriptionOf(propPointer);
      const needs = dependent[name]?.length ? `; needs ${list(dependent[name].map(code), 'and')}` : '';
      doc.properties.push({
        name,
        type: this.typeText(prop, propPointer),
        required: required.has(name) ? 'yes' : conditions.get(name) ? `when ${conditions.get(name)}` : `no${needs}`,
        enforced: enforcementOf(description),
        description: withoutMarker(description),
      });
    }
    const not = node.not;
    if (isObject(not) && Array.isArray(not.required)) doc.notes.push(`Not both ${list((not.required as string[]).map(code), 'and')}.`);
    if (!isObject(node.additionalProperties) && node.additionalProperties !== false) doc.notes.push('Other keywords are allowed.');
    else if (isObject(node.additionalProperties))
      doc.notes.push(`Other keywords: ${this.typeText(node.additionalProperties, `${pointer}/additionalProperties`)}.`);
  }

  /**
   * The description of a property: its own, else that of the definition its `$ref` names. An own
   * description that is only a marker (`"(enforced: browser)"` next to a `$ref`) says where this use
   * of a shared definition is enforced: the text is the definition's, the marker the property's.
   */
  descriptionOf(pointer: string): string {
    const own = at(this.schema, pointer);
    const ownText = isObject(own) && typeof own.description === 'string' ? own.description : undefined;
    if (ownText !== undefined && withoutMarker(ownText).trim() !== '') return ownText;
    const { node } = this.resolve(pointer);
    const referenced = node !== own && typeof node.description === 'string' ? withoutMarker(node.description).trim() : '';
    if (ownText === undefined) return typeof node.description === 'string' ? node.description : '';
    return referenced ? `${referenced} ${ownText.trim()}` : ownText;
  }

  /** `property -> "`type` is `dict`, `multiDict` or `area`"` from `if`/`then` requirements (direct or in `allOf`). */
  private conditionalRequirements(node: Schema): Map<string, string> {
    const out = new Map<string, string>();
    const conditionals = [node, ...(Array.isArray(node.allOf) ? node.allOf.filter(isObject) : [])];
    for (const c of conditionals) {
      if (!isObject(c.if) || !isObject(c.then) || !Array.isArray(c.then.required)) continue;
      const tests = Object.entries(isObject(c.if.properties) ? c.if.properties : {}).map(([name, test]) => {
        const t = isObject(test) ? test : {};
        const values = 'const' in t ? [t.const] : Array.isArray(t.enum) ? t.enum : [];
        return `${code(name)} is ${list(values.map(json))}`;
      });
      const condition = tests.join(' and ');
      for (const name of c.then.required as string[]) out.set(name, out.has(name) ? `${out.get(name)}, or ${condition}` : condition);
    }
    return out;
  }

  /** A named value type (a titled definition that is not an object type), listed once per kind. */
  private valueTypeLink(pointer: string, node: Schema): string {
    const title = node.title as string;
    let doc = this.valueTypes.get(title);
    if (!doc) {
      doc = {
        title,
        anchor: `${this.kind}-value-${slug(title)}`,
        type: '',
        description: typeof node.description === 'string' ? withoutMarker(node.description) : '',
      };
      this.valueTypes.set(title, doc);
      doc.type = this.typeText({ ...node, title: undefined }, pointer, true);
    }
    return `[${title}](#${doc.anchor})`;
  }

  /** Type and allowed values of a schema, in words. */
  typeText(schema: unknown, pointer: string, inline = false): string {
    if (schema === true) return 'anything';
    if (!isObject(schema)) return 'anything';
    if (typeof schema.$ref === 'string') {
      const { node, pointer: target } = this.resolve(pointer);
      if (this.isObjectType(node)) return this.objectLink(target);
      if (typeof node.title === 'string') return this.valueTypeLink(target, node);
      return this.typeText(node, target);
    }
    if (this.isObjectType(schema) && !inline) return this.objectLink(pointer);
    if (!inline && typeof schema.title === 'string' && pointer.includes('/$defs/') && pointer.split('/').length === 3)
      return this.valueTypeLink(pointer, schema);
    if ('const' in schema) return json(schema.const);
    if (Array.isArray(schema.enum)) return `one of ${list(schema.enum.map(json))}`;
    const names = openEnum(schema);
    if (names) {
      const rules = names.length === ruleNames.length && names.every((n, i) => n === ruleNames[i]);
      return `${rules ? 'a [validation rule](#validation-rules) name' : `one of ${list(names.map(json))}`} (any string matching ${code(String(schema.pattern ?? '.*'))} passes the meta-schema; the lint reports others)`;
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) return list(branches.map((b, i) => this.typeText(b, `${pointer}/${key}/${i}`)));
    }
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
    if (types.length === 0) return 'anything';
    return list(types.map((t) => this.oneType(t, schema, pointer)));
  }

  private oneType(type: string, schema: Schema, pointer: string): string {
    const limits: string[] = [];
    const add = (cond: unknown, text: string) => cond !== undefined && limits.push(text);
    switch (type) {
      case 'string': {
        add(schema.minLength, schema.minLength === 1 ? 'not empty' : `at least ${String(schema.minLength)} characters`);
        add(schema.maxLength, `at most ${String(schema.maxLength)} characters`);
        add(schema.pattern, `matching ${code(String(schema.pattern))}`);
        add(schema.format, `format ${code(String(schema.format))}`);
        return ['string', ...limits].join(', ');
      }
      case 'integer':
      case 'number': {
        const range =
          schema.minimum !== undefined && schema.maximum !== undefined
            ? `${String(schema.minimum)}–${String(schema.maximum)}`
            : schema.minimum !== undefined
              ? `≥ ${String(schema.minimum)}`
              : schema.maximum !== undefined
                ? `≤ ${String(schema.maximum)}`
                : '';
        return range ? `${type} ${range}` : type;
      }
      case 'array': {
        const items = schema.items === undefined ? 'anything' : this.typeText(schema.items, `${pointer}/items`);
        add(schema.minItems, `at least ${String(schema.minItems)}`);
        add(schema.maxItems, `at most ${String(schema.maxItems)}`);
        if (schema.uniqueItems === true) limits.push('no duplicates');
        return `array of ${items}${limits.length ? ` (${limits.join(', ')})` : ''}`;
      }
      case 'object': {
        if (this.isObjectType(schema)) return this.objectLink(pointer);
        const names = isObject(schema.propertyNames) ? this.typeText(schema.propertyNames, `${pointer}/propertyNames`) : 'name';
        const values = isObject(schema.additionalProperties) ? this.typeText(schema.additionalProperties, `${pointer}/additionalProperties`) : 'anything';
        add(schema.minProperties, `at least ${String(schema.minProperties)}`);
        return `map of ${names} → ${values}${limits.length ? ` (${limits.join(', ')})` : ''}`;
      }
      default:
        return type;
    }
  }
}

/** The `const`s of an open enum (`anyOf` of `const`s plus `true`: names offered, others accepted). */
function openEnum(schema: Schema): unknown[] | undefined {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || !branches.includes(true)) return undefined;
  const named = branches.filter((b) => b !== true);
  return named.length > 0 && named.every((b) => isObject(b) && 'const' in b) ? named.map((b) => (b as Schema).const) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Examples from the real files

interface Instance {
  file: string;
  path: (string | number)[];
  value: Schema;
}

/** Every object of a file with the object type it is an instance of (by the meta-schema's structure). */
function collectInstances(reader: KindReader, file: string, value: unknown, out: Map<string, Instance[]>): void {
  const visit = (v: unknown, pointer: string, path: (string | number)[], depth: number) => {
    if (depth > 40) return;
    const { node, pointer: target } = reader.resolve(pointer);
    if (isObject(node.properties) && isObject(v)) {
      const found = out.get(target) ?? [];
      found.push({ file, path, value: v });
      out.set(target, found);
    }
    const branchKey = Array.isArray(node.oneOf) ? 'oneOf' : Array.isArray(node.anyOf) ? 'anyOf' : undefined;
    if (branchKey) {
      const i = chooseBranch(reader, node, target, branchKey, v);
      if (i >= 0) visit(v, `${target}/${branchKey}/${i}`, path, depth + 1);
    }
    if (isObject(v)) {
      const props = isObject(node.properties) ? node.properties : {};
      for (const [key, child] of Object.entries(v)) {
        if (key in props) visit(child, `${target}/properties/${escapePointer(key)}`, [...path, key], depth + 1);
        else if (isObject(node.additionalProperties)) visit(child, `${target}/additionalProperties`, [...path, key], depth + 1);
      }
    } else if (Array.isArray(v) && isObject(node.items)) {
      v.forEach((item, i) => visit(item, `${target}/items`, [...path, i], depth + 1));
    }
  };
  visit(value, '#', [], 0);
}

/** The branch of a union a value takes: by the discriminator's tag, else the first whose type fits. */
function chooseBranch(reader: KindReader, node: Schema, pointer: string, key: 'anyOf' | 'oneOf', value: unknown): number {
  const branches = (node[key] as unknown[]).map((_, i) => reader.resolve(`${pointer}/${key}/${i}`).node);
  const d = node.discriminator;
  if (isObject(d) && typeof d.propertyName === 'string' && isObject(value)) {
    const tag = value[d.propertyName];
    return branches.findIndex(
      (b) => isObject(b.properties) && isObject(b.properties[d.propertyName as string]) && (b.properties[d.propertyName as string] as Schema).const === tag,
    );
  }
  const kind = Array.isArray(value)
    ? 'array'
    : value === null
      ? 'null'
      : typeof value === 'object'
        ? 'object'
        : typeof value === 'number'
          ? 'number'
          : typeof value;
  return branches.findIndex((b) => {
    const types = Array.isArray(b.type) ? b.type : b.type !== undefined ? [b.type] : isObject(b.properties) ? ['object'] : [];
    if ('const' in b) return b.const === value;
    return types.includes(kind) || (kind === 'number' && types.includes('integer')) || (types.length === 0 && kind === 'string');
  });
}

const WIDTH = 100;

/** A JSON value on one line, as people write short values (`{ "a": 1 }`, `["x", "y"]`). */
function oneLine(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(oneLine).join(', ')}]`;
  if (isObject(v)) {
    const entries = Object.entries(v);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${oneLine(x)}`).join(', ')} }`;
  }
  return JSON.stringify(v);
}

/** An example as JSONC: short values on one line, longer ones shortened with `// …` comments. */
function renderExample(v: unknown, indent = '', depth = 0, prefix = ''): string {
  const flat = oneLine(v);
  if (indent.length + prefix.length + flat.length <= WIDTH || (!Array.isArray(v) && !isObject(v))) return flat;
  if (depth >= 2) return Array.isArray(v) ? '[ /* … */ ]' : '{ /* … */ }';
  const inner = `${indent}  `;
  const entries: [string, unknown][] = Array.isArray(v) ? v.map((x) => ['', x]) : Object.entries(v);
  const limit = depth === 0 ? Infinity : Array.isArray(v) ? 3 : 6;
  const shown = entries.length > limit ? entries.slice(0, limit - 1) : entries;
  const lines = shown.map(([k, x], i) => {
    const key = Array.isArray(v) ? '' : `${JSON.stringify(k)}: `;
    const comma = i < shown.length - 1 ? ',' : '';
    return `${inner}${key}${renderExample(x, inner, depth + 1, key)}${comma}`;
  });
  if (shown.length < entries.length) lines.push(`${inner}// … ${entries.length - shown.length} more`);
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.join('\n')}\n${indent}${close}`;
}

function describePath(path: (string | number)[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : /^[A-Za-z_$][\w$-]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('');
}

/**
 * Picks each object type's example: the files of the worked demo (demo-*) first, then the others
 * in path order; within the first file that has the type, the instance using the most keywords.
 * Preferring one file keeps the reference stable while other files change.
 */
/** Files whose objects are preferred as examples after the demo ones. */
const EXAMPLE_SOURCES = /(^|\/)(equipment|self-check|online-apply|use-regist-apply|use-change-apply|inspection-record|area|menu)[^/]*\.json$/;

function addExamples(reader: KindReader, doc: KindDoc, files: { path: string; value: unknown }[]): void {
  const instances = new Map<string, Instance[]>();
  // Examples come from the tutorial's demo files, then from a fixed set of long-standing files, so
  // adding a screen does not change the reference (only a keyword no earlier file uses adds one).
  const rank = (p: string) => (/(^|\/)demo-[^/]*$/.test(p) ? 0 : EXAMPLE_SOURCES.test(p) ? 1 : 2);
  const ordered = [...files].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  for (const file of ordered) collectInstances(reader, file.path, file.value, instances);
  for (const object of doc.objects) {
    const found = instances.get(object.pointer);
    if (!found?.length) continue;
    const inFirst = found.filter((i) => i.file === found[0].file);
    const best = inFirst.reduce((a, b) => (Object.keys(b.value).length > Object.keys(a.value).length ? b : a));
    object.example = { file: `schemas/${best.file}`, at: describePath(best.path), text: renderExample(best.value) };
  }
}

// ---------------------------------------------------------------------------------------------
// The document

/** The documentation model of every meta-schema in `metaDir`, with examples from `schemaDir`. */
export function readReference(metaDir = META_DIR, schemaDir = SCHEMA_DIR): KindDoc[] {
  const sources = readdirSync(metaDir).filter((f) => f.endsWith('.schema.json'));
  const kinds = sources.map((f) => f.replace(/\.schema\.json$/, '')).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const texts = existsSync(schemaDir) ? readSchemaTexts(schemaDir) : [];
  return kinds.map((kind) => {
    const reader = new KindReader(kind, JSON.parse(readFileSync(join(metaDir, `${kind}.schema.json`), 'utf8')) as Schema);
    const doc = reader.read();
    const files = texts
      .filter((t) => kindOf(t.path) === kind)
      .flatMap((t) => {
        try {
          return [{ path: t.path, value: JSON.parse(t.text) as unknown }];
        } catch {
          return []; // the lint reports it
        }
      });
    addExamples(reader, doc, files);
    return doc;
  });
}

const rank = (kind: string) => (KIND_ORDER.includes(kind) ? KIND_ORDER.indexOf(kind) : KIND_ORDER.length);

const LEGEND = [
  '| Enforced by | Meaning |',
  '|---|---|',
  '| browser | The engine in the browser applies it (src/engine, src/app, src/shell): what a screen shows and offers. A request that bypasses the browser is not held to it. |',
  '| server | The server applies it to every request (src/server), whatever the browser sent. |',
  '| browser and server | Both: the form marks or checks it as the user types, and the server refuses a request that breaks it, with the same Chinese message where there is one. |',
  '| lint only | Read by people and checked by `npm run lint:schemas` only; nothing reads it at run time. |',
];

/** schemas/meta/README.md as it should be. */
export function generateReference(metaDir = META_DIR, schemaDir = SCHEMA_DIR): string {
  const kinds = readReference(metaDir, schemaDir);
  const out: string[] = [];
  const push = (...lines: string[]) => out.push(...lines);
  push(
    '<!-- Generated by scripts/gen-docs.ts from schemas/meta/*.schema.json, schemas/ and validators/index.ts: do not edit. Run `npm run gen:docs`. -->',
    '',
    '# Schema reference',
    '',
    'Every keyword of the schema files, generated from the meta-schemas in this folder (`npm run gen:docs`;',
    "`npm test` fails when this page is stale). A keyword's description here is its description in the",
    'meta-schema, which editors show on hover; examples are taken from the files under `schemas/`. The',
    'step-by-step tutorial is [schemas/README.md](../README.md).',
    '',
    'Every file is checked by `npm run lint:schemas` (against its meta-schema, then across files: names',
    'resolve, workflows are sound, expressions parse). The column *Enforced by* says where a keyword',
    'acts at run time:',
    '',
    ...LEGEND,
    '',
    '*Required*: `yes`, `no`, or the condition under which the keyword is required.',
    '',
    '## Contents',
    '',
    ...kinds.map(
      (k) => `- [${k.title}](#${k.kind}) — ${k.location ? code(k.location) : code(k.file)}: ${k.objects.map((o) => `[${o.title}](#${o.anchor})`).join(', ')}`,
    ),
    '- [Validation rules](#validation-rules)',
    '',
  );
  for (const kind of kinds) {
    push(`<a id="${kind.kind}"></a>`, '', `## ${kind.title}`, '');
    push(`Files: ${kind.location ? code(kind.location) : '—'}; meta-schema: [${kind.file}](${kind.file}).`, '');
    if (kind.description) push(kind.description, '');
    if (kind.alternatives.length) push(`A file is one of: ${list(kind.alternatives)}.`, '');
    for (const object of kind.objects) {
      push(`<a id="${object.anchor}"></a>`, '', `### ${object.title}`, '');
      if (object.description && !(object.pointer === '#' && object.description === kind.description)) push(object.description, '');
      if (object.usedIn.length) push(`Used in: ${object.usedIn.join(', ')}.`, '');
      push('| Keyword | Type / allowed values | Required | Enforced by | What it does |', '|---|---|---|---|---|');
      for (const p of object.properties) {
        push(`| ${code(p.name)} | ${cell(p.type)} | ${cell(p.required)} | ${p.enforced ?? '—'} | ${cell(p.description) || '—'} |`);
      }
      push('');
      if (object.notes.length) push(object.notes.join(' '), '');
      if (object.example) {
        const where = object.example.at ? ` (${code(object.example.at)})` : '';
        push(
          `Example from [${object.example.file}](../${object.example.file.replace(/^schemas\//, '')})${where}:`,
          '',
          '```jsonc',
          object.example.text,
          '```',
          '',
        );
      }
    }
    if (kind.valueTypes.length) {
      push(`<a id="${kind.kind}-values"></a>`, '', `### Value types (${kind.title})`, '', '| Name | Type / allowed values | What it is |', '|---|---|---|');
      for (const v of kind.valueTypes) push(`| <a id="${v.anchor}"></a>${code(v.title)} | ${cell(v.type)} | ${cell(v.description) || '—'} |`);
      push('');
    }
  }
  push(
    '<a id="validation-rules"></a>',
    '',
    '## Validation rules',
    '',
    "The names a field's `rules` may use (validators/index.ts), with the message shown when a value fails.",
    'The same functions run in the browser (as the user types, 500 ms after the last change, and on blur',
    'and submit) and on the server (every save and action input): enforced by browser and server. Empty',
    'values pass every rule (`required` is separate). `{ "rule": "postalCode", "message": "请输入有效的邮政编码" }`',
    'replaces the message for one field.',
    '',
    '| Rule | Message |',
    '|---|---|',
    ...ruleNames.map((name) => `| ${code(name)} | ${messages[name]} |`),
    '',
  );
  return out.join('\n');
}

/** `kind Object.keyword` of every keyword whose description names no place of enforcement. */
export function unmarkedKeywords(docs = readReference()): string[] {
  return docs.flatMap((doc) => doc.objects.flatMap((o) => o.properties.filter((p) => !p.enforced).map((p) => `${doc.kind} ${o.title}.${p.name}`)));
}

/** The schema history page: the evolution every resource declares (src/schema/evolution.ts). */
export const HISTORY_PATH = 'docs/schema-history.md';

export function generateSchemaHistory(): string {
  const resources = readSchemaTexts(SCHEMA_DIR)
    .filter((t) => kindOf(t.path) === 'resource')
    .map((t) => JSON.parse(t.text) as Resource)
    .sort((a, b) => a.name.localeCompare(b.name));
  const list = (items: string[]) => items.join('<br>') || '—';
  const rows = resources.flatMap((r) => {
    const e = declaredEvolution(r);
    if (e.renames.length + e.conversions.length + e.retired.length + e.dropped.length === 0) return [];
    return [
      `| ${code(r.name)} | ${code(r.table)} | ${list(e.renames.map((x) => `${code(x.from)} → ${code(x.field)}`))} | ${list(e.conversions.map((x) => `${code(x.field)}: ${x.what}`))} | ${list(e.retired.map(code))} | ${list(e.dropped.map(code))} |`,
    ];
  });
  return [
    '<!-- Generated by scripts/gen-docs.ts from schemas/resources: do not edit; run npm run gen:docs. -->',
    '',
    '# Schema history',
    '',
    'What each resource declares about the data its table already holds: renamed fields (`renamedFrom`),',
    'converted values (`convert`), retired fields (`retired`) and dropped columns (`evolution.drop`).',
    'The server applies each step once, at start, in one transaction, and records it in the table',
    '`sys_schema_evolution`. How to declare them: schemas/README.md, "Changing a resource that already holds data".',
    '',
    ...(rows.length === 0
      ? [`None of the ${resources.length} resources declares a step yet.`]
      : ['| Resource | Table | Renamed | Converted | Retired | Dropped |', '|---|---|---|---|---|---|', ...rows]),
    '',
  ].join('\n');
}

/** Writes a generated document, or with --check exits 1 when it is missing or stale. */
function generated(path: string, text: string, stale: string): void {
  const file = join(root, path);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(`${path} is ${current === undefined ? 'missing' : `out of date with ${stale}`}: run npm run gen:docs`);
      process.exit(1);
    }
    return;
  }
  if (current !== text) writeFileSync(file, text);
  console.log(`${current === text ? 'unchanged' : 'generated'} ${path}`);
}

async function main(): Promise<void> {
  const unmarked = unmarkedKeywords();
  if (unmarked.length) {
    console.error(`keywords without "(enforced: …)" at the end of their description:\n  ${unmarked.join('\n  ')}`);
    process.exit(1);
  }
  configurationGuide();
  generated(HISTORY_PATH, generateSchemaHistory(), 'schemas/resources');
  const text = generateReference();
  const current = existsSync(REFERENCE_FILE) ? readFileSync(REFERENCE_FILE, 'utf8') : undefined;
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(
        `${REFERENCE_PATH} is ${current === undefined ? 'missing' : 'out of date with schemas/meta, the examples under schemas/ or validators/index.ts'}: run npm run gen:docs`,
      );
      process.exit(1);
    }
    return;
  }
  if (current !== text) writeFileSync(REFERENCE_FILE, text);
  console.log(`${current === text ? 'unchanged' : 'generated'} ${REFERENCE_PATH}`);
}

/** docs/configuration.md's settings table (scripts/settings-doc.ts): rewritten, or checked with --check. */
function configurationGuide(): void {
  const file = join(root, CONFIGURATION_PATH);
  const current = readFileSync(file, 'utf8');
  const text = withSettingsTable(current);
  if (text === null) {
    console.error(`${CONFIGURATION_PATH}: the settings markers are missing`);
    process.exit(1);
  }
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(`${CONFIGURATION_PATH}'s settings table is out of date with src/server/config.ts: run npm run gen:docs`);
      process.exit(1);
    }
    return;
  }
  if (current !== text) writeFileSync(file, text);
  console.log(`${current === text ? 'unchanged' : 'generated'} the settings table of ${CONFIGURATION_PATH}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  parseCommandLine({
    name: 'npm run gen:docs',
    summary: [
      'Generates schemas/meta/README.md, the reference of the schema files, from the meta-schemas, one example per object type from schemas/ and the validation catalogue; the settings table of the configuration guide; and docs/schema-history.md, the evolution each resource declares.',
    ],
    options: { check: { type: 'boolean', description: 'write nothing; exit 1 when a generated document is missing or stale' } },
    examples: ['npm run gen:docs', 'npm run gen:docs -- --check'],
  });
  await main();
}
