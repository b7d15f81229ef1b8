/**
 * A resource compiled once at start into what the SQL, the validation and the routes need:
 * its columns (declared fields and system columns), the prepared select list, the indexes, the
 * writable fields and its sub-tables. Domain-free: everything comes from the resource JSON.
 *
 * System columns (wire name → column):
 *   id → id                 32-hex primary key, made by the server
 *   status → status         workflow state (resources with a workflow)
 *   unitId → unit_id        owning unit (scope "unit")
 *   areaCode → area_code    owning area (scope "area"), and the owner's area (scope "unit"), so
 *                           oversight roles can see the rows of their area
 *   createBy/createDate, updateBy/updateDate → created_by/created_at, updated_by/updated_at
 *   version → version       optimistic concurrency, +1 on every write
 *   parent_id, sort         sub-table rows only (not on the wire)
 */
import type { Field, FieldType, Resource, Workflow } from '../../schema/types';
import { fieldKind, type ValueKind as AnyValueKind } from '../../schema/kinds';
import { liveResource } from '../../schema/evolution';
import { LABEL_SEPARATOR, labelFieldsOf } from '../../schema/model';
import type { Catalog } from './catalog';
import { maskedColumn, maskOf, type MaskRule } from './mask-patterns';
import { columnOf, indexName, quote } from './naming';
import { indexColumnOf, sealable, type FieldCipher } from './sealed-columns';

/** How a column's value travels (a sub-table has no column). */
export type ValueKind = Exclude<AnyValueKind, 'rows'>;

/** How a value travels between JSON and SQL. */

export interface ColumnDef {
  column: string;
  /** Canonical SQL type, comparable with the database's (see ddl.ts `canonicalType`). */
  sqlType: string;
  /** SQL of `NOT NULL DEFAULT ...` for system columns that always hold a value. */
  constraint?: string;
}

export interface IndexDef {
  name: string;
  columns: string[];
  unique: boolean;
  /** `trigram`: a GIN pg_trgm index (contains searches); default: a B-tree. */
  method?: 'trigram';
  /** An index this one makes redundant (its columns are a prefix of these): dropped once this one exists. */
  replaces?: string;
}

export interface FieldModel {
  name: string;
  column: string;
  type: FieldType;
  kind: ValueKind;
  sqlType: string;
  label: string;
  field: Field;
  /** Taken from a request body (declared, not readonly, not a sub-table). */
  writable: boolean;
  /** Declared by the resource (not a system column such as id, status or the audit columns). */
  declared: boolean;
  /** Allowed codes of dict, multiDict and area fields. */
  codes?: readonly string[];
  /** Personal data read masked (field `mask`: masking.ts). */
  mask?: MaskRule;
  /** Stored encrypted (sealed-fields.ts): read raw by the select lists, opened and masked in JavaScript. */
  sealed?: boolean;
  /**
   * A field without a column of its own (field `owner`): the SQL expression that reads it, over the
   * resource's table by its name. Never written, indexed or created; lists sort by the expression.
   */
  read?: string;
}

export interface ChildLink {
  /** The field holding the rows on the wire. */
  name: string;
  label: string;
  model: ResourceModel;
}

/** The compiled `party` of a resource (scope.ts servedRows, record-save.ts). */
export interface PartyModel {
  roleType: string;
  /** The column naming the serving unit (`field`); absent with `through`. */
  column?: string;
  /** The states the party reads its rows in (`states`); absent: those its actions start from or lead to. */
  states?: readonly string[];
  /** The ref field through which the party files rows for the record's owner (`via`). */
  via?: FieldModel;
  /** The states in which a row the party filed is its own alone: the owner does not see it (`ownStates`). */
  ownStates?: readonly string[];
  /** `through`: the rows named by a sub-table of another resource's served records (resolved once every model is compiled). */
  through?: PartyThrough;
}

export interface PartyThrough {
  parentTable: string;
  /** The parent's party column. */
  parentColumn: string;
  childTable: string;
  /** The sub-table's column naming a row of this resource. */
  refColumn: string;
  states: readonly string[];
}

export interface ResourceModel {
  name: string;
  /** The resource JSON it was compiled from (field requirements are read from it: src/schema/requirements.ts). */
  resource: Resource;
  table: string;
  title: string;
  scope: Resource['scope'];
  workflow: Workflow | undefined;
  /** Menu access ids; the role needs one of them (empty: any logged-in role). */
  access: readonly string[];
  /** Legacy path aliases by operation. */
  api: Readonly<Record<string, string>>;
  /** Wire fields in order: declared fields, then system fields. */
  fields: readonly FieldModel[];
  byName: ReadonlyMap<string, FieldModel>;
  writable: readonly FieldModel[];
  children: readonly ChildLink[];
  /** A sub-table of another resource: rows carry parent_id and are reached through the parent. */
  isChild: boolean;
  columns: readonly ColumnDef[];
  indexes: readonly IndexDef[];
  /** `"c" AS "name", ...` for every wire field, whole values: computed once, used by the server's own reads. */
  selectSql: string;
  /** The same with the masked fields masked (masking.ts): what lists and answers read. */
  maskedSelectSql: string;
  /** The declared fields with a `mask`. */
  masked: readonly FieldModel[];
  /** The fields stored encrypted (PORTAL_CRYPTO=sm with a master key: sealed-fields.ts); empty otherwise. */
  sealed: readonly FieldModel[];
  /** The cipher of sm mode (it seals and opens `sealed`, and the account columns hooks write); null in the standard mode. */
  cipher: FieldCipher | null;
  /** The column holding the row's owner for the resource's scope. */
  ownerColumn: 'unit_id' | 'area_code' | undefined;
  /** Resource `party`: who else serves the rows and how (scope.ts). */
  party: PartyModel | undefined;
  /** Server hooks computing readonly fields on every save (hooks.ts). */
  derive: readonly string[];
  /** Hooks run after a delete, with the removed row (resource `onDelete`). */
  onDelete: readonly string[];
  /** No save, delete or workflow routes: rows are written by the server only. */
  readOnly: boolean;
  /** A table (or view) of the server's own, only read (resource `systemTable`: system-table.ts). */
  systemTable: boolean;
  /** Columns the list parameter `q` searches (resource `search`). */
  searchColumns: readonly string[];
}

/** The value kind of a type that has a column. */
function columnKind(type: FieldType): ValueKind {
  const { value } = fieldKind(type);
  if (value === 'rows') throw new Error(`fields of type ${type} have no column`);
  return value;
}

/** SQL type of a declared field. */
export function sqlTypeOf(field: Field): string {
  const sql = fieldKind(field.type).sql;
  if (!sql) throw new Error(`fields of type ${field.type} have no column`);
  return sql(field);
}

/**
 * A record's label in SQL (src/schema/model.ts labelFieldsOf: its `display` fields joined, else its
 * first text field), over the table aliased `alias`; masked fields masked unless `whole` (an import
 * matching labels against stored values). Encrypted fields cannot be read in SQL and are left out.
 */
export function labelSqlOf(model: ResourceModel, alias: string, whole = false): string {
  const parts = labelFieldsOf(model.resource).flatMap((n) => {
    const f = model.byName.get(n);
    if (!f || f.sealed || f.read) return [];
    const column = `${alias}.${quote(f.column)}`;
    return [whole ? column : maskedColumn(f, column)];
  });
  return `concat_ws('${LABEL_SEPARATOR}', ${parts.join(', ') || `${alias}.id`})`;
}

/**
 * `"c" AS "name", ...` for the named fields of `model` only (unknown names are skipped). With
 * `models`, a ref field reads as the label of the record it names (its resource's `display`
 * fields joined with ' · ', else its first text field; the id when that is empty), as screens show it.
 */
export function selectSqlOf(model: ResourceModel, names: readonly string[], models?: ReadonlyMap<string, ResourceModel>): string {
  const fields = names.flatMap((n) => (model.byName.has(n) ? [model.byName.get(n)!] : []));
  return fields
    .map((f) => {
      const target = f.type === 'ref' ? models?.get(f.field.ref ?? '') : undefined;
      if (!target) return maskedItem(f);
      const own = `${quote(model.table)}.${quote(f.column)}`;
      return `COALESCE(NULLIF((SELECT ${labelSqlOf(target, 'r')} FROM ${quote(target.table)} AS r WHERE r.id = ${own}), ''), ${own}) AS ${quote(f.name)}`;
    })
    .join(', ');
}

/** One item of a select list: the field's column (or its `read` expression) read as its wire value, named as the field. */
const selectItem = (f: Pick<FieldModel, 'column' | 'kind' | 'name' | 'read'>): string => `${f.read ?? selectExpression(f.column, f.kind)} AS ${quote(f.name)}`;
/** The same, masked when the field has a mask (an encrypted field is read as stored: sealed-fields.ts openRows masks it). */
const maskedItem = (f: FieldModel): string => (f.mask && !f.sealed ? `${maskedColumn(f, quote(f.column))} AS ${quote(f.name)}` : selectItem(f));

/** Read expression of a column: dates as `YYYY-MM-DD`, timestamps as ISO 8601 UTC, numerics as JSON numbers. */
function selectExpression(column: string, kind: ValueKind): string {
  const ref = quote(column);
  if (kind === 'date') return `to_char(${ref}, 'YYYY-MM-DD')`;
  if (kind === 'datetime') return `to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  if (kind === 'number') return `${ref}::float8`;
  return ref;
}

interface SystemColumn {
  name: string;
  column: string;
  type: FieldType;
  label: string;
  sqlType: string;
  constraint?: string;
}

const ID: SystemColumn = { name: 'id', column: 'id', type: 'string', label: '编号', sqlType: 'char(32)', constraint: 'PRIMARY KEY' };
const AUDIT_COLUMNS: SystemColumn[] = [
  { name: 'createBy', column: 'created_by', type: 'string', label: '创建人', sqlType: 'char(32)' },
  { name: 'createDate', column: 'created_at', type: 'datetime', label: '创建时间', sqlType: 'timestamptz', constraint: 'NOT NULL DEFAULT now()' },
  { name: 'updateBy', column: 'updated_by', type: 'string', label: '更新人', sqlType: 'char(32)' },
  { name: 'updateDate', column: 'updated_at', type: 'datetime', label: '更新时间', sqlType: 'timestamptz', constraint: 'NOT NULL DEFAULT now()' },
  { name: 'version', column: 'version', type: 'int', label: '版本', sqlType: 'integer', constraint: 'NOT NULL DEFAULT 1' },
];
const STATUS: SystemColumn = { name: 'status', column: 'status', type: 'string', label: '状态', sqlType: 'varchar(50)' };
const UNIT: SystemColumn = { name: 'unitId', column: 'unit_id', type: 'string', label: '所属单位', sqlType: 'char(32)' };
const AREA: SystemColumn = { name: 'areaCode', column: 'area_code', type: 'string', label: '所属区域', sqlType: 'varchar(12)' };
const PARENT_COLUMNS: ColumnDef[] = [
  { column: 'parent_id', sqlType: 'char(32)', constraint: 'NOT NULL' },
  { column: 'sort', sqlType: 'integer', constraint: 'NOT NULL DEFAULT 0' },
];

function systemColumns(resource: Resource, isChild: boolean): SystemColumn[] {
  if (isChild) return [ID];
  // A system table has what its migration made: the id, and the owner's columns of its scope.
  if (resource.systemTable) return [ID, ...(resource.scope === 'unit' ? [UNIT, AREA] : resource.scope === 'area' ? [AREA] : [])];
  const columns = [ID];
  if (resource.workflow) columns.push(STATUS);
  if (resource.scope === 'unit') columns.push(UNIT, AREA);
  if (resource.scope === 'area') columns.push(AREA);
  return [...columns, ...AUDIT_COLUMNS];
}

function systemField(column: SystemColumn): FieldModel {
  const kind = columnKind(column.type);
  return {
    name: column.name,
    column: column.column,
    type: column.type,
    kind,
    sqlType: column.sqlType,
    label: column.label,
    field: { type: column.type, label: column.label, readonly: true },
    writable: false,
    declared: false,
  };
}

/** The unit register's column behind each value of the field keyword `owner`. */
const OWNER_COLUMNS = { name: 'orgname', code: 'orgcode', id: 'id' } as const;

/**
 * Field `owner`: the owning unit's name or code, read from sys_unit through the row's unit_id by a
 * correlated subquery over `table` (the statements name resource tables unaliased). A page computes
 * it for its own rows only (repository.ts listPage); filters.ts matches it through the unit ids.
 */
export const ownerReadSql = (table: string, owner: keyof typeof OWNER_COLUMNS): string =>
  `(SELECT o.${OWNER_COLUMNS[owner]} FROM sys_unit AS o WHERE o.id = ${quote(table)}.unit_id)`;

/** The sys_unit column a field `owner` reads. */
export const ownerColumnOf = (owner: keyof typeof OWNER_COLUMNS): string => OWNER_COLUMNS[owner];

function declaredField(resource: Resource, name: string, field: Field, catalog: Catalog, cipher: FieldCipher | null): FieldModel {
  if (field.owner !== undefined) {
    if (resource.scope !== 'unit' || resource.systemTable)
      throw new Error(`resource '${resource.name}': field '${name}' reads the owning unit (owner), which needs scope "unit"`);
    return {
      name,
      column: columnOf(name),
      type: field.type,
      kind: columnKind(field.type),
      sqlType: sqlTypeOf(field),
      label: field.label,
      field,
      writable: false,
      declared: true,
      read: ownerReadSql(resource.table, field.owner),
    };
  }
  const codes = field.dict === undefined ? undefined : catalog.dictValues.get(field.dict);
  if (field.dict !== undefined && !codes) throw new Error(`resource '${resource.name}': field '${name}' uses dictionary '${field.dict}', which does not exist`);
  const model: FieldModel = {
    name,
    column: field.column ?? columnOf(name),
    type: field.type,
    kind: columnKind(field.type),
    sqlType: sqlTypeOf(field),
    label: field.label,
    field,
    writable: !field.readonly && !resource.systemTable,
    declared: true,
    codes,
    mask: maskOf(field),
  };
  // A column that may hold a ciphertext is text in every mode (its length is checked on the plain value), so switching modes needs no migration.
  if (sealable(model) && !resource.systemTable) return { ...model, sqlType: 'text', sealed: cipher !== null };
  return model;
}

/** The blind-index companions of the sealable columns (sealed-fields.ts): in every mode, filled in sm mode only. */
const indexColumns = (declared: readonly FieldModel[]): ColumnDef[] =>
  declared.filter(sealable).map((f) => ({ column: indexColumnOf(f.column), sqlType: 'text' }));

function indexesOf(table: string, fields: readonly FieldModel[], resource: Resource, isChild: boolean): IndexDef[] {
  const index = (columns: string[], unique = false): IndexDef => ({ name: indexName(table, columns, unique ? 'uq' : 'idx'), columns, unique });
  const indexes: IndexDef[] = [];
  const owner = isChild ? 'parent_id' : resource.scope === 'unit' ? 'unit_id' : resource.scope === 'area' ? 'area_code' : undefined;
  if (isChild) indexes.push(index(['parent_id', 'sort']));
  else {
    // The default list order within the owner's rows (filters.ts defaultOrder: creation time, then
    // id). The id belongs in the index: rows created by one statement (an import, the demo data)
    // share their creation time, and an index without it made the first page read and sort every
    // row of the owner (a demo unit's 303 rows: 3.9 ms a page on PGlite, 2.5 with it).
    // The former (owner, created_at) index is a prefix of it: dropped once it is made, so writes do not keep both.
    const order = owner ? [owner, 'created_at'] : ['created_at'];
    indexes.push({ ...index([...order, 'id']), replaces: indexName(table, order, 'idx') });
    if (resource.scope === 'unit') indexes.push(index(['area_code']));
    if (resource.workflow) indexes.push(index(['status']));
    // A serving party reads its rows by this column (scope.ts servedRows).
    const party = resource.party?.field !== undefined ? fields.find((d) => d.name === resource.party!.field) : undefined;
    if (party && !party.field.index && !party.field.unique) indexes.push(index([party.column, 'status']));
  }
  for (const f of fields) {
    // An encrypted column is matched through its blind index (sm mode only; indexes are never dropped, so both sets may stay).
    const column = f.sealed ? indexColumnOf(f.column) : f.column;
    if (f.field.unique) indexes.push(index(owner ? [owner, column] : [column], true));
    else if (f.field.index) indexes.push(index([column]));
  }
  for (const name of resource.search ?? []) {
    const f = fields.find((d) => d.name === name);
    if (f && !f.sealed) indexes.push({ name: indexName(table, [f.column], 'trgm'), columns: [f.column], unique: false, method: 'trigram' });
  }
  return indexes;
}

/** The compiled `party` of a resource, but `through` (partyThrough, once every model is compiled). */
function partyOf(resource: Resource, stored: readonly FieldModel[], isChild: boolean): ResourceModel['party'] {
  const party = resource.party;
  if (!party || isChild) return undefined;
  const named = (name: string, what: string, ok: (f: FieldModel) => boolean) => {
    const f = stored.find((d) => d.name === name);
    if (!f || !ok(f)) throw new Error(`resource '${resource.name}': party ${what} '${name}' is not ${what === 'via' ? 'a ref field' : 'a text field'} of it`);
    return f;
  };
  if (party.through) {
    if (party.field !== undefined) throw new Error(`resource '${resource.name}': party has both field and through`);
    return { roleType: party.roleType };
  }
  if (party.field === undefined) throw new Error(`resource '${resource.name}': party needs field or through`);
  const field = named(party.field, 'field', (f) => f.kind === 'string');
  const via = party.via === undefined ? undefined : named(party.via, 'via', (f) => f.type === 'ref');
  return { roleType: party.roleType, column: field.column, states: party.states, via, ownStates: party.ownStates };
}

/** Resolves each `party.through` against the compiled models (the served resource, its sub-table and ref). */
function partyThrough(models: ReadonlyMap<string, ResourceModel>): void {
  for (const model of models.values()) {
    const through = model.resource.party?.through;
    if (!through || !model.party) continue;
    const fail = (why: string) => new Error(`resource '${model.name}': party through ${why}`);
    const parent = models.get(through.resource);
    if (!parent?.party?.column || parent.party.roleType !== model.party.roleType)
      throw fail(`'${through.resource}' is not served by role type '${model.party.roleType}'`);
    const link = parent.children.find((c) => c.name === through.subTable);
    if (!link) throw fail(`'${through.subTable}' is not a sub-table of '${parent.name}'`);
    const ref = link.model.byName.get(through.ref);
    if (ref?.type !== 'ref' || ref.field.ref !== model.name) throw fail(`'${through.ref}' is not a ref to '${model.name}' in '${link.model.name}'`);
    model.party.through = {
      parentTable: parent.table,
      parentColumn: parent.party.column,
      childTable: link.model.table,
      refColumn: ref.column,
      states: through.states,
    };
  }
}

/**
 * Compiles every resource of the catalog; sub-table resources are compiled as children. `cipher`
 * (sealed-fields.ts fieldCipher): the ID card and mobile columns are stored encrypted.
 */
export function compileModels(catalog: Catalog, cipher: FieldCipher | null = null): ResourceModel[] {
  const byName = new Map(catalog.resources.map((r) => [r.name, r]));
  const childNames = new Set(
    catalog.resources.flatMap((r) => Object.values(r.fields).flatMap((f) => (f?.type === 'children' && f.resource ? [f.resource] : []))),
  );
  const compiled = new Map<string, ResourceModel>();

  const compile = (resource: Resource, trail: string[]): ResourceModel => {
    const done = compiled.get(resource.name);
    if (done) return done;
    if (trail.includes(resource.name)) throw new Error(`sub-tables form a cycle: ${[...trail, resource.name].join(' → ')}`);
    const isChild = childNames.has(resource.name);
    const declared: FieldModel[] = [];
    const children: ChildLink[] = [];
    // A retired field keeps its column and data, but is no field of the model: no answer reads it, no write takes it.
    const retired: FieldModel[] = [];
    for (const [name, field] of Object.entries(resource.fields)) {
      if (!field) continue;
      if (field.retired) {
        if (field.type !== 'children' && field.owner === undefined) retired.push(declaredField(resource, name, field, catalog, cipher));
        continue;
      }
      if (field.type !== 'children') {
        declared.push(declaredField(resource, name, field, catalog, cipher));
        continue;
      }
      const target = byName.get(field.resource ?? '');
      if (!target) throw new Error(`resource '${resource.name}': sub-table '${name}' names resource '${field.resource}', which does not exist`);
      children.push({ name, label: field.label, model: compile(target, [...trail, resource.name]) });
    }
    const system = systemColumns(resource, isChild);
    const fields = [...declared, ...system.map(systemField)];
    if (isChild && declared.some((f) => f.read)) throw new Error(`resource '${resource.name}': a sub-table has no owning unit to read (owner)`);
    const stored = declared.filter((f) => !f.read);
    const columnNames = new Map<string, string>();
    for (const f of fields) {
      const clash = columnNames.get(f.column);
      if (clash) throw new Error(`resource '${resource.name}': fields '${clash}' and '${f.name}' both map to column '${f.column}'`);
      columnNames.set(f.column, f.name);
    }
    const model: ResourceModel = {
      name: resource.name,
      resource: liveResource(resource),
      table: resource.table,
      title: resource.title,
      scope: isChild ? undefined : resource.scope,
      workflow: isChild ? undefined : resource.workflow,
      access: resource.access ?? [],
      api: Object.fromEntries(Object.entries(resource.api ?? {}).filter((e): e is [string, string] => e[1] !== undefined)),
      fields,
      byName: new Map(fields.map((f) => [f.name, f])),
      writable: declared.filter((f) => f.writable),
      children,
      isChild,
      columns: [
        ...system.map((c) => ({ column: c.column, sqlType: c.sqlType, constraint: c.constraint })),
        ...(isChild ? PARENT_COLUMNS : []),
        ...[...stored, ...retired].map((f) => ({ column: f.column, sqlType: f.sqlType })),
        ...(resource.systemTable ? [] : indexColumns([...stored, ...retired])),
      ],
      // A system table's indexes are its migration's.
      indexes: resource.systemTable ? [] : indexesOf(resource.table, stored, resource, isChild),
      selectSql: fields.map(selectItem).join(', '),
      maskedSelectSql: fields.map(maskedItem).join(', '),
      masked: declared.filter((f) => f.mask),
      sealed: declared.filter((f) => f.sealed),
      cipher,
      ownerColumn: isChild ? undefined : resource.scope === 'unit' ? 'unit_id' : resource.scope === 'area' ? 'area_code' : undefined,
      party: partyOf(resource, stored, isChild),
      derive: resource.derive ?? [],
      onDelete: resource.onDelete ?? [],
      readOnly: resource.readOnly === true || resource.systemTable === true,
      systemTable: resource.systemTable === true,
      searchColumns: (resource.search ?? []).map((name) => {
        const f = stored.find((d) => d.name === name);
        if (!f || f.kind !== 'string') throw new Error(`resource '${resource.name}': search field '${name}' is not a text field of it`);
        return f.column;
      }),
    };
    compiled.set(resource.name, model);
    return model;
  };

  const models = catalog.resources.map((r) => compile(r, []));
  partyThrough(compiled);
  return models;
}
