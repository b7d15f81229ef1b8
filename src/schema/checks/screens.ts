/**
 * Screens: the resource exists and every field, action, expression, linked screen and route the
 * screen names resolves against it; a field appears once per screen; renders fit field types.
 * Stats screens group by coded fields only, and their fixed filters use the list's own parameters.
 */
import type { LintContext } from '../context';
import type { JsonPath } from '../json-source';
import {
  CONTEXT_VARIABLES,
  SCREEN_ACTIONS,
  acceptsImport,
  filterParamsOf,
  isCoded,
  isDictType,
  isGroupable,
  isListable,
  isSortable,
  recordActions,
  resourceFields,
} from '../model';
import type {
  ActionRef,
  ColumnItem,
  DetailScreen,
  DocumentScreen,
  Field,
  FieldItem,
  FormScreen,
  ListFilter,
  ListScreen,
  Resource,
  SchemaFile,
  Screen,
  Section,
  StatsCard,
  StatsChart,
  StatsScreen,
  StatsWhere,
  WizardScreen,
} from '../types';
import { dictValues } from './dicts';
import { fieldKind, type ValueKind } from '../kinds';
import { UNREAD_PARAM } from '../model';
import { checkExpression } from './expressions';
import { checkField } from './resources';
import { ownProof, screenOwnFields, screenResource } from '../screen-fields';

type ScreenFile = SchemaFile<'screen'>;
type Render = NonNullable<ColumnItem['render']>;

/** Value kinds each column render accepts (absent: any). `dictTag` also takes the workflow state. */
const RENDER_VALUES: Partial<Record<Render, readonly ValueKind[]>> = {
  date: ['date', 'datetime'],
  datetime: ['datetime'],
  money: ['number', 'integer'],
  lines: ['string'],
  presence: ['json'],
};

/** Screen kinds a list's `form` and `detail` may open. */
const LINKED_KINDS = { form: ['form', 'wizard'], detail: ['detail'] } as const;

export function checkScreens(ctx: LintContext): void {
  for (const { file, valid } of ctx.screens.values()) {
    if (!valid) continue;
    const screen = file.value;
    const entry = screen.resource === undefined ? undefined : ctx.resources.get(screen.resource);
    if (screen.resource !== undefined && !entry) {
      ctx.report(file, ['resource'], 'unknown-resource', `no resource '${screen.resource}' (schemas/resources/${screen.resource}.json)`);
      continue;
    }
    if (screen.component !== undefined || ('x-formily' in screen && screen['x-formily'] !== undefined)) ctx.escapeHatches.add(screen.id);
    if (entry && !entry.valid) continue;
    if (screen.kind === 'form' || screen.kind === 'list' || screen.kind === 'detail') {
      const own = screenOwnFields(screen);
      const rowsOfSource = (screen.kind === 'list' || screen.kind === 'detail') && screen.source !== undefined;
      for (const [name, field] of Object.entries(own)) checkField(ctx, file as unknown as SchemaFile<'resource'>, name, field, { rowsOfSource });
      new ScreenChecker(ctx, file, screenResource(screen, entry?.file.value)).check(screen);
    } else new ScreenChecker(ctx, file, entry!.file.value).check(screen);
    if (screen.kind === 'list' || screen.kind === 'detail') checkProof(ctx, file, screen);
  }
}

/**
 * An open screen's `proof`: a token proof reads a `source` (the token goes with that read, not with
 * the resource routes) and names its token, parameter and key; a record proof (a detail's, whose
 * reply is the record) has neither source nor token; its items name its own fields (an `sms` item
 * sends for its own fields too); a proof given as a screen id is that screen's own. A list that
 * opens rows by a click has a detail to open; a detail's `embed` is an open form.
 */
function checkProof(ctx: LintContext, file: ScreenFile, screen: ListScreen | DetailScreen): void {
  if (screen.kind === 'list' && screen.rowOpens && !screen.detail)
    ctx.report(file, ['rowOpens'], 'screen-link', "'rowOpens' opens a row's detail: the list has no 'detail'");
  if (screen.kind === 'detail' && screen.embed) {
    const target = ctx.screens.get(screen.embed.screen)?.file.value;
    if (!target) ctx.report(file, ['embed', 'screen'], 'unknown-screen', `no screen '${screen.embed.screen}' (schemas/screens/${screen.embed.screen}.json)`);
    else if (target.kind !== 'form' || !target.submit)
      ctx.report(file, ['embed', 'screen'], 'screen-link', `'embed' shows an open form (a form screen with 'submit'): '${screen.embed.screen}' is not one`);
  }
  let proof = screen.proof;
  if (proof && 'of' in proof) {
    const owner = ctx.screens.get(proof.of)?.file.value;
    const shared = owner && ownProof(owner);
    if (!shared) return ctx.report(file, ['proof', 'of'], 'screen-link', `proof of '${proof.of}': no screen of that id with a proof of its own`);
    proof = shared;
  }
  if (!proof) return;
  const tokenParts = [proof.token, proof.param, proof.keep].filter((p) => p !== undefined).length;
  if (proof.record) {
    if (screen.kind !== 'detail')
      ctx.report(file, ['proof', 'record'], 'screen-link', "a proof's 'record' is the record a detail screen shows: a list has rows to read");
    if (tokenParts || proof.expired || screen.source)
      ctx.report(
        file,
        ['proof', 'record'],
        'screen-link',
        "a proof whose reply is the record has no token, 'param', 'keep', 'expired' nor 'source': nothing is read with it",
      );
  } else {
    if (tokenParts !== 3)
      ctx.report(
        file,
        ['proof'],
        'screen-link',
        "a proof names its reply's 'token', the 'param' it is sent as and the 'keep' key (or its reply is the 'record')",
      );
    if (!screen.source)
      ctx.report(file, ['proof'], 'screen-link', "a 'proof' goes with a 'source': the token is sent with the source's reads, not the resource routes");
  }
  if (proof.flowLog && !proof.record) ctx.report(file, ['proof', 'flowLog'], 'screen-link', "a proof's 'flowLog' is the log of its 'record'");
  const own = new Set(Object.keys(proof.fields));
  proof.items.forEach((item, i) => {
    const name = typeof item === 'string' ? item : item.field;
    if (!own.has(name)) ctx.report(file, ['proof', 'items', i], 'unknown-field', `proof item '${name}': not a field of the proof ('proof.fields')`);
    if (typeof item !== 'string')
      for (const [j, sent] of (item.sms?.fields ?? []).entries())
        if (!own.has(sent))
          ctx.report(file, ['proof', 'items', i, 'sms', 'fields', j], 'unknown-field', `sms field '${sent}': not a field of the proof ('proof.fields')`);
  });
}

/** Two fixed-filter values mean the same: equal scalars, or the same codes in any order. */
function sameWhereValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (Array.isArray(v) ? v.map(String).sort().join('\u0000') : String(v));
  return norm(a) === norm(b);
}

class ScreenChecker {
  private readonly fields: ReadonlyMap<string, Field>;
  private readonly names: ReadonlySet<string>;
  private readonly actions: ReadonlySet<string>;

  constructor(
    private readonly ctx: LintContext,
    private readonly file: ScreenFile,
    private readonly resource: Resource,
  ) {
    this.fields = resourceFields(resource);
    this.names = new Set([...this.fields.keys(), ...Object.keys(CONTEXT_VARIABLES)]);
    this.actions = new Set(recordActions(resource));
  }

  check(screen: Screen): void {
    switch (screen.kind) {
      case 'list':
        return this.list(screen);
      case 'form':
        for (const name of Object.keys(screen.prefill ?? {})) this.field(['prefill', name], name);
        for (const name of Object.keys(screen.initialValues ?? {})) this.field(['initialValues', name], name);
        return this.sectioned(screen);
      case 'detail':
        this.detailSource(screen);
        return this.sectioned(screen);
      case 'wizard':
        for (const name of Object.keys(screen.initialValues ?? {})) this.field(['initialValues', name], name);
        return this.wizard(screen);
      case 'stats':
        return this.stats(screen);
      case 'document':
        return this.document(screen);
    }
  }

  /** A document screen: its resource prints (`document`), and every field and {placeholder} it names exists. */
  private document(screen: DocumentScreen): void {
    if (!this.resource.document)
      this.ctx.report(this.file, ['resource'], 'field-type', `resource '${this.resource.name}' has no 'document': it does not print`);
    if (screen.number !== undefined) this.field(['number'], screen.number);
    screen.fields?.forEach((ref, i) => this.field(typeof ref === 'string' ? ['fields', i] : ['fields', i, 'field'], typeof ref === 'string' ? ref : ref.field));
    const placeholders = (at: JsonPath, text: string | undefined) => {
      for (const [, name] of (text ?? '').matchAll(/\{([A-Za-z_$][A-Za-z0-9_]*)\}/g))
        if (!this.names.has(name))
          this.ctx.report(this.file, at, 'unknown-field', `placeholder '{${name}}': resource '${this.resource.name}' has no field '${name}'`);
    };
    screen.body?.forEach((text, i) => placeholders(['body', i], text));
    screen.signatures?.forEach((sig, i) => {
      placeholders(['signatures', i, 'text'], sig.text);
      placeholders(['signatures', i, 'date'], sig.date);
    });
    placeholders(['note'], screen.note);
  }

  private filters(filters: readonly ListFilter[] | undefined): void {
    filters?.forEach((filter, i) => {
      const at = typeof filter === 'string' ? ['filters', i] : ['filters', i, 'field'];
      this.listableField(at, typeof filter === 'string' ? filter : filter.field, 'filter on');
    });
  }

  private list(screen: ListScreen): void {
    this.listSource(screen);
    this.filters(screen.filters);
    const shown = new Set<string>();
    screen.columns.forEach((column, i) =>
      this.column(typeof column === 'string' ? { field: column } : column, typeof column === 'string' ? ['columns', i] : ['columns', i, 'field'], shown),
    );
    // A cell that searches the list for its value needs the screen's filter on its field.
    const filtered = new Set((screen.filters ?? []).map((f) => (typeof f === 'string' ? f : f.field)));
    screen.columns.forEach((column, i) => {
      if (typeof column !== 'string' && column.filterOnClick && !filtered.has(column.field)) {
        this.ctx.report(
          this.file,
          ['columns', i, 'filterOnClick'],
          'unknown-filter',
          `filterOnClick: the screen has no filter on '${column.field}' (add it to filters)`,
          'key',
        );
      }
    });
    if (screen.defaultSort) this.sortableField(['defaultSort', 'field'], screen.defaultSort.field);

    for (const key of ['form', 'detail'] as const) if (screen[key] !== undefined) this.linkedScreen([key], screen[key], LINKED_KINDS[key]);
    if (screen.detailBy) {
      this.listableField(['detailBy', 'field'], screen.detailBy.field, 'choose the detail by');
      for (const [value, id] of Object.entries(screen.detailBy.screens)) if (id) this.linkedScreen(['detailBy', 'screens', value], id, LINKED_KINDS.detail);
    }
    screen.toolbar?.forEach((item, i) => {
      const action = typeof item === 'string' ? item : item.action;
      const targets = typeof item === 'string' ? [] : (['to', 'dialog', 'formDialog'] as const).filter((key) => item[key] !== undefined);
      const opens = targets.length > 0;
      if (opens && action !== 'add')
        this.ctx.report(this.file, ['toolbar', i], 'screen-link', `toolbar '${action}': only 'add' opens a route ('to') or a dialog ('dialog', 'formDialog')`);
      if (targets.length > 1)
        this.ctx.report(
          this.file,
          ['toolbar', i],
          'screen-link',
          `a button opens a route ('to') or a dialog ('dialog', 'formDialog'), one of them: '${targets.join("' or '")}'`,
        );
      if (typeof item !== 'string' && item.formDialog !== undefined) this.formDialog(['toolbar', i, 'formDialog'], item.formDialog);
      if (typeof item !== 'string' && item.to !== undefined && this.ctx.routes && !this.ctx.routes.has(item.to))
        this.ctx.report(this.file, ['toolbar', i, 'to'], 'unknown-route', `no route '${item.to}' in the menu`);
      if (action === 'add' && screen.form === undefined && !opens)
        this.ctx.report(this.file, ['toolbar', i], 'screen-link', "toolbar 'add' needs the list's 'form' screen");
      if (screen.source && (action === 'export' || action === 'import' || action === 'compare'))
        this.ctx.report(this.file, ['toolbar', i], 'screen-link', `toolbar '${action}': a list over a 'source' reads no resource routes to ${action} through`);
      else if (action === 'import' && !acceptsImport(this.resource)) {
        this.ctx.report(
          this.file,
          ['toolbar', i],
          'unknown-action',
          `toolbar 'import': resource '${this.resource.name}' takes no import (readOnly, or its workflow cannot save a new row in the initial state)`,
        );
      }
    });
    this.actionRefs(['rowActions'], screen.rowActions, ['view', 'edit'], screen);
    this.actionRefs(['batchActions'], screen.batchActions, [], screen);
  }

  private column(column: ColumnItem, at: JsonPath, shown: Set<string>): void {
    const field = this.listableField(at, column.field, 'show');
    if (field && column.sortable && !isSortable(field.type))
      this.ctx.report(this.file, [...at.slice(0, -1), 'sortable'], 'field-type', `a list cannot sort by '${column.field}' (type ${field.type})`);
    if (shown.has(column.field)) this.ctx.report(this.file, at, 'duplicate-field', `column '${column.field}' is shown twice`);
    shown.add(column.field);
    const base = at.slice(0, -1);
    if (field && column.render) {
      const values = RENDER_VALUES[column.render];
      const fits = column.render === 'dictTag' ? isCoded(this.resource, column.field, field) : !values || values.includes(fieldKind(field.type).value);
      if (!fits) this.ctx.report(this.file, [...base, 'render'], 'field-type', `render '${column.render}' does not fit '${column.field}' (type ${field.type})`);
    }
    if (column.to !== undefined && this.ctx.routes && !this.ctx.routes.has(column.to)) {
      this.ctx.report(this.file, [...base, 'to'], 'unknown-route', `no route '${column.to}' in the menu`);
    }
    if (column.toId !== undefined) {
      if (column.to === undefined) this.ctx.report(this.file, [...base, 'toId'], 'screen-link', "toId names the id a link's route opens: set 'to'", 'key');
      // A declared field: list rows carry those only (the owning unit's id is a field `owner: "id"`).
      else if (!this.resource.fields[column.toId])
        this.ctx.report(this.file, [...base, 'toId'], 'unknown-field', `resource '${this.resource.name}' has no field '${column.toId}'`);
    }
  }

  private stats(screen: StatsScreen): void {
    this.filters(screen.filters);
    screen.cards?.forEach((card, i) => {
      if (card.where) this.where(['cards', i, 'where'], card.where);
      if (card.link !== undefined && this.ctx.routes && !this.ctx.routes.has(card.link)) {
        this.ctx.report(this.file, ['cards', i, 'link'], 'unknown-route', `no route '${card.link}' in the menu`);
      } else if (card.link !== undefined) this.cardLink(['cards', i, 'link'], card.link, card, screen);
    });
    screen.charts?.forEach((chart, i) => {
      const at = ['charts', i, 'groupBy'];
      if (chart.resource !== undefined || chart.sum !== undefined || chart.rateSum !== undefined) {
        this.summedLine(chart, i);
        return;
      }
      if (chart.type === 'line') {
        // A line counts per month of date fields.
        const lines = [
          { at, name: chart.groupBy },
          ...(chart.lines ?? []).map((line, j) => ({ at: ['charts', i, 'lines', j, 'groupBy'], name: line.groupBy })),
        ];
        for (const line of lines) {
          const field = this.field(line.at, line.name);
          if (field && fieldKind(field.type).filter !== 'date')
            this.ctx.report(this.file, line.at, 'field-type', `a line chart counts per month of a date field; '${line.name}' is ${field.type}`);
        }
        chart.lines?.forEach((line, j) => line.where && this.where(['charts', i, 'lines', j, 'where'], line.where));
        if (chart.where) this.where(['charts', i, 'where'], chart.where);
        const [from, to] = chart.months ?? [-11, 0];
        if (from > to) this.ctx.report(this.file, ['charts', i, 'months'], 'field-type', `months [${from}, ${to}]: the first month comes after the last`);
        if (chart.rate) this.where(['charts', i, 'rate'], chart.rate);
        if (chart.rate && chart.lines)
          this.ctx.report(this.file, ['charts', i, 'lines'], 'field-type', "a rate line is one line: 'lines' do not go with 'rate'");
        if (chart.stackBy !== undefined) this.ctx.report(this.file, ['charts', i, 'stackBy'], 'field-type', 'stackBy splits bars: only a bar chart takes it');
        this.chartLink(['charts', i, 'link'], chart);
        return;
      }
      if (chart.lines || chart.months || chart.label)
        this.ctx.report(this.file, ['charts', i, 'type'], 'field-type', `'label', 'months' and 'lines' belong to a line chart`);
      const field = this.field(at, chart.groupBy);
      if (field && !isGroupable(this.resource, chart.groupBy, field)) {
        this.ctx.report(
          this.file,
          at,
          'field-type',
          `a chart cannot group by '${chart.groupBy}' (type ${field.type}): use a dict, multiDict, area or bool field, or the workflow state`,
        );
      }
      if (chart.where) this.where(['charts', i, 'where'], chart.where);
      if (chart.rate) {
        if (chart.type !== 'bar')
          this.ctx.report(this.file, ['charts', i, 'rate'], 'field-type', `a share (rate) is drawn as bars or a line, not as a ${chart.type} chart`);
        this.where(['charts', i, 'rate'], chart.rate);
      }
      if (chart.stackBy !== undefined) {
        const sat = ['charts', i, 'stackBy'];
        if (chart.type !== 'bar') this.ctx.report(this.file, sat, 'field-type', `stackBy splits bars: only a bar chart takes it, not ${chart.type}`);
        if (chart.rate) this.ctx.report(this.file, sat, 'field-type', 'a chart shows either stacked counts (stackBy) or a share (rate), not both');
        if (chart.stackBy === chart.groupBy) this.ctx.report(this.file, sat, 'field-type', `stackBy '${chart.stackBy}' is the groupBy field itself`);
        const stack = this.field(sat, chart.stackBy);
        // The server refuses multi-value (codes) fields on either side of a stack: parts would not add up.
        if (stack && (!isGroupable(this.resource, chart.stackBy, stack) || stack.type === 'multiDict')) {
          this.ctx.report(
            this.file,
            sat,
            'field-type',
            `a chart cannot stack by '${chart.stackBy}' (type ${stack.type}): use a dict, area or bool field, or the workflow state`,
          );
        }
        if (field?.type === 'multiDict')
          this.ctx.report(this.file, at, 'field-type', `a stacked chart cannot group by the multi-value field '${chart.groupBy}'`);
      }
      this.chartLink(['charts', i, 'link'], chart);
    });
    // The flow-times table reads each resource's workflow log: every row names a resource with a workflow.
    screen.flowTimes?.resources.forEach((name, i) => {
      const other = this.ctx.resources.get(name);
      if (!other) this.ctx.report(this.file, ['flowTimes', 'resources', i], 'unknown-resource', `no resource '${name}' (schemas/resources/${name}.json)`);
      else if (other.valid && !other.file.value.workflow)
        this.ctx.report(this.file, ['flowTimes', 'resources', i], 'field-type', `resource '${name}' has no workflow: the flow-times table has nothing to time`);
    });
  }

  /**
   * A line of sums (`sum`, `rateSum`) or over another resource (`resource`): a line chart whose
   * `groupBy` is a date field and whose sums are integer fields of the resource it reads, one line
   * without the keys that filter or link rows of the screen's resource.
   */
  private summedLine(chart: StatsChart, i: number): void {
    const name = chart.resource ?? this.resource.name;
    const entry = this.ctx.resources.get(name);
    if (!entry) {
      this.ctx.report(this.file, ['charts', i, 'resource'], 'unknown-resource', `no resource '${name}' (schemas/resources/${name}.json)`);
      return;
    }
    if (chart.type !== 'line')
      this.ctx.report(this.file, ['charts', i, 'type'], 'field-type', `'resource', 'sum' and 'rateSum' draw a line per month, not a ${chart.type} chart`);
    for (const key of ['where', 'lines', 'rate', 'link', 'stackBy'] as const) {
      if (chart[key] !== undefined)
        this.ctx.report(
          this.file,
          ['charts', i, key],
          'field-type',
          `'${key}' does not go with 'resource', 'sum' or 'rateSum' (one line of sums over the chart's resource)`,
        );
    }
    if (chart.rateSum !== undefined && chart.sum === undefined)
      this.ctx.report(this.file, ['charts', i, 'rateSum'], 'field-type', "'rateSum' is a share of the 'sum' field's sum: name 'sum' too");
    if (!entry.valid) return;
    const fields = resourceFields(entry.file.value);
    const fieldOf = (key: 'groupBy' | 'sum' | 'rateSum', kind: 'date' | 'int') => {
      const fieldName = chart[key];
      if (fieldName === undefined) return;
      const field = fields.get(fieldName);
      if (!field) this.ctx.report(this.file, ['charts', i, key], 'unknown-field', `resource '${name}' has no field '${fieldName}'`);
      else if (kind === 'date' ? fieldKind(field.type).filter !== 'date' : field.type !== 'int') {
        this.ctx.report(
          this.file,
          ['charts', i, key],
          'field-type',
          kind === 'date'
            ? `a line chart counts per month of a date field; '${fieldName}' is ${field.type}`
            : `'${key}' sums an integer field; '${fieldName}' is ${field.type}`,
        );
      }
    };
    fieldOf('groupBy', 'date');
    fieldOf('sum', 'int');
    fieldOf('rateSum', 'int');
  }

  /**
   * A chart's drill-down `link`: a route of the menu; when it shows a list of the same resource,
   * the list filters on the clicked fields (groupBy, stackBy), since the link carries their values.
   */
  private chartLink(at: JsonPath, chart: StatsChart): void {
    const route = chart.link;
    if (route === undefined) return;
    if (this.ctx.routes && !this.ctx.routes.has(route)) {
      this.ctx.report(this.file, at, 'unknown-route', `no route '${route}' in the menu`);
      return;
    }
    const id = this.ctx.routeScreens?.get(route);
    const target = id === undefined ? undefined : this.ctx.screens.get(id);
    if (!target?.valid) return;
    const list = target.file.value;
    if (list.kind !== 'list' || list.resource !== this.resource.name) {
      this.ctx.report(
        this.file,
        at,
        'screen-link',
        `route '${route}' shows ${list.kind} screen '${id}' of resource '${list.resource}'; a chart opens a list of '${this.resource.name}'`,
      );
      return;
    }
    const shown = new Set((list.filters ?? []).map((f) => (typeof f === 'string' ? f : f.field)));
    for (const name of [chart.groupBy, chart.stackBy]) {
      if (name !== undefined && !shown.has(name))
        this.ctx.report(this.file, at, 'screen-link', `list '${id}' has no filter on '${name}': the clicked value would be lost on the way`);
    }
  }

  /**
   * A card's link opens a list of the rows the card counts: a list screen of the same resource
   * that shows every parameter of the card's `where` as a filter (the link carries it) or fixes it
   * to the same value, fixes nothing else, and shows the stats screen's filters (the link keeps them).
   * Routes to pages or placeholders are not compared.
   */
  private cardLink(at: JsonPath, route: string, card: StatsCard, screen: StatsScreen): void {
    const id = this.ctx.routeScreens?.get(route);
    const target = id === undefined ? undefined : this.ctx.screens.get(id);
    if (!target?.valid) return;
    const list = target.file.value;
    if (list.kind !== 'list' || list.resource !== this.resource.name) {
      this.ctx.report(
        this.file,
        at,
        'screen-link',
        `route '${route}' shows ${list.kind} screen '${id}' of resource '${list.resource}'; a card opens a list of '${this.resource.name}'`,
      );
      return;
    }
    const shown = new Set((list.filters ?? []).map((f) => (typeof f === 'string' ? f : f.field)));
    const fixed: StatsWhere = list.where ?? {};
    const own: StatsWhere = card.where ?? {};
    const params = filterParamsOf(this.resource);
    for (const [key, value] of Object.entries(own)) {
      const field = params.get(key)?.field;
      if (field === undefined) continue; // reported by where()
      if (key in fixed ? sameWhereValue(fixed[key], value) : shown.has(field)) continue;
      const why = key in fixed ? `fixes '${key}' to another value` : `has no filter on '${field}'`;
      this.ctx.report(this.file, at, 'screen-link', `list '${id}' ${why}: it would not show the rows this card counts`);
    }
    for (const key of Object.keys(fixed)) {
      if (!(key in own))
        this.ctx.report(
          this.file,
          at,
          'screen-link',
          `list '${id}' also fixes '${key}', which this card does not: it would show fewer rows than the card counts`,
        );
    }
    for (const filter of screen.filters ?? []) {
      const name = typeof filter === 'string' ? filter : filter.field;
      if (!shown.has(name) && !Object.keys(fixed).some((key) => params.get(key)?.field === name)) {
        this.ctx.report(this.file, at, 'screen-link', `list '${id}' has no filter on '${name}': the screen's filter would be lost on the way`);
      }
    }
  }

  /** A fixed filter: parameters the list endpoint knows, with values that fit their field. */
  private where(at: JsonPath, where: StatsWhere): void {
    const params = filterParamsOf(this.resource);
    for (const [key, value] of Object.entries(where)) {
      if (value === undefined) continue;
      // A resource with read marks also answers `unread=true` (the rows the user has not opened).
      if (key === UNREAD_PARAM && this.resource.readMarks) {
        if (value !== true) this.ctx.report(this.file, [...at, key], 'field-type', `'${UNREAD_PARAM}' takes true`);
        continue;
      }
      const param = params.get(key);
      if (!param) {
        this.ctx.report(
          this.file,
          [...at, key],
          'unknown-filter',
          `'${key}' is not a list filter parameter of resource '${this.resource.name}' (a field name, or <field>_gte / <field>_lte of a number or date)`,
          'key',
        );
        continue;
      }
      const field = this.fields.get(param.field)!;
      if (isCoded(this.resource, param.field, field)) {
        const codes = this.codesOf(field);
        const values = Array.isArray(value) ? value.map((v, i) => [v, [...at, key, i]] as const) : [[value, [...at, key]] as const];
        for (const [code, path] of values) {
          if (typeof code !== 'string') this.ctx.report(this.file, path, 'field-type', `'${key}' takes codes (strings)`);
          else if (codes && !codes.values.has(code)) this.ctx.report(this.file, path, 'dict-value', `'${code}' is not a value of ${codes.source}`);
        }
        continue;
      }
      const { value: kind, filter } = fieldKind(field.type);
      // An attachment filter asks whether any file is uploaded: true or false.
      const expected = kind === 'boolean' || filter === 'presence' ? 'boolean' : kind === 'integer' || kind === 'number' ? 'number' : 'string';
      const actual = Array.isArray(value) ? 'list' : typeof value;
      if (actual === 'list')
        this.ctx.report(this.file, [...at, key], 'field-type', `'${key}' takes one ${expected}, not a list (only coded fields take several values)`);
      else if (actual !== expected) this.ctx.report(this.file, [...at, key], 'field-type', `'${key}' takes a ${expected} (type ${field.type})`);
    }
  }

  /** The codes a coded field accepts: its dictionary's values, or the workflow's states; undefined when unknown. */
  private codesOf(field: Field): { values: ReadonlySet<string>; source: string } | undefined {
    if (!isDictType(field.type))
      return { values: new Set(this.resource.workflow?.states.map((s) => s.code)), source: `the workflow states of '${this.resource.name}'` };
    const dict = field.dict === undefined ? undefined : this.ctx.dicts.get(field.dict);
    return dict?.valid ? { values: dictValues(dict.file.value.items), source: `dictionary '${field.dict}'` } : undefined;
  }

  private wizard(screen: WizardScreen): void {
    const seen = new Set<string>();
    screen.steps.forEach((step, i) => this.sections(['steps', i, 'sections'], step.sections, seen));
    this.actionRefs(['actions'], screen.actions, ['back']);
    this.afterSave(screen);
  }

  /** Staying on the saved record needs a mode to show it in. */
  /** A form over a `source`: not an open form too; what `once` shows are fields of the screen. */
  private formSource(screen: FormScreen, seen: ReadonlySet<string>): void {
    const source = screen.source!;
    if (screen.submit) this.ctx.report(this.file, ['source'], 'screen-link', "a form posts to 'submit' (an open form) or saves to 'source', not both");
    if (screen.fields === undefined) this.ctx.report(this.file, ['source'], 'screen-link', "a form over a 'source' declares the 'fields' it posts");
    source.once?.show?.forEach((name, i) => {
      if (!seen.has(name)) this.ctx.report(this.file, ['source', 'once', 'show', i], 'unknown-field', `'${name}' is not a field the form shows`);
    });
    if (source.success !== undefined && screen.afterSave !== undefined)
      this.ctx.report(this.file, ['afterSave'], 'screen-link', "a form over a 'source' with 'success' goes to that route: drop afterSave");
  }

  private afterSave(screen: FormScreen | WizardScreen): void {
    if (screen.afterSave === 'record' && screen.modes && !screen.modes.some((m) => m === 'edit' || m === 'view'))
      this.ctx.report(this.file, ['afterSave'], 'screen-link', "afterSave 'record' stays on the saved record: the form needs mode 'edit' or 'view'");
  }

  private sectioned(screen: FormScreen | DetailScreen): void {
    const seen = new Set<string>();
    this.sections(['sections'], screen.sections, seen);
    this.actionRefs(['actions'], screen.actions, ['back']);
    if (screen.kind === 'form' && screen.submit) {
      screen.submit.check?.forEach((path, i) => this.placeholders(['submit', 'check', i], path, seen, 'the fields of the screen'));
      if (screen.actions !== undefined) this.ctx.report(this.file, ['actions'], 'screen-link', 'an open form (submit) has its own submit button: drop actions');
      if (screen.afterSave !== undefined)
        this.ctx.report(this.file, ['afterSave'], 'screen-link', 'an open form (submit) goes to submit.success: drop afterSave');
    }
    if (screen.kind === 'form') this.afterSave(screen);
    if (screen.kind === 'form' && screen.source) this.formSource(screen, seen);
    if (screen.kind === 'detail') {
      screen.attachments?.forEach((name, i) => {
        const field = this.field(['attachments', i], name);
        if (field && field.type !== 'attachment')
          this.ctx.report(this.file, ['attachments', i], 'field-type', `'${name}' is not an attachment (type ${field.type})`);
      });
      screen.related?.forEach((related, i) => this.related(['related', i], related));
      if (typeof screen.print === 'object') this.expression(['print', 'when'], screen.print.when);
    }
  }

  /** A detail's related list: a list screen of another resource, and a ref field of it that points here. */
  private related(at: JsonPath, { screen: id, field: name, columns }: { screen: string; field: string; columns?: string[] }): void {
    const target = this.ctx.screens.get(id);
    if (!target) return void this.ctx.report(this.file, [...at, 'screen'], 'unknown-screen', `no screen '${id}' (schemas/screens/${id}.json)`);
    if (!target.valid) return;
    const list = target.file.value;
    if (list.kind !== 'list')
      return void this.ctx.report(this.file, [...at, 'screen'], 'screen-link', `screen '${id}' is a ${list.kind} screen; expected list`);
    const other = list.resource === undefined ? undefined : this.ctx.resources.get(list.resource);
    if (!other?.valid) return;
    const shown = new Set(list.columns.map((c) => (typeof c === 'string' ? c : c.field)));
    columns?.forEach((column, i) => {
      if (!shown.has(column)) this.ctx.report(this.file, [...at, 'columns', i], 'unknown-field', `list '${id}' has no column '${column}'`);
    });
    // The owning unit: the rows a unit owns, on a screen whose records are units (the lint cannot tell that part).
    if (name === 'unitId' && other.file.value.scope === 'unit' && !other.file.value.fields[name]) return;
    const field = other.file.value.fields[name];
    if (!field) this.ctx.report(this.file, [...at, 'field'], 'unknown-field', `resource '${list.resource}' has no field '${name}'`);
    else if (field.type !== 'ref' || field.ref !== this.resource.name)
      this.ctx.report(
        this.file,
        [...at, 'field'],
        'field-type',
        `'${name}' of '${list.resource}' does not point at '${this.resource.name}' (a ref field with ref '${this.resource.name}' is needed)`,
      );
  }

  /** Every {placeholder} of an API path template is one of `names`. */
  private placeholders(at: JsonPath, template: string, names: ReadonlySet<string>, where: string): void {
    for (const [, name] of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
      if (!names.has(name)) this.ctx.report(this.file, at, 'unknown-field', `placeholder '{${name}}' is not one of ${where}`);
    }
  }

  private sections(path: JsonPath, sections: readonly Section[], seen: Set<string>): void {
    sections.forEach((section, s) => {
      const at = [...path, s];
      if (section.when !== undefined) this.expression([...at, 'when'], section.when);
      if (section.each !== undefined) this.each([...at, 'each'], section.each, seen);
      section.fields.forEach((ref, i) => {
        const item: FieldItem = typeof ref === 'string' ? { field: ref } : ref;
        const itemPath = typeof ref === 'string' ? [...at, 'fields', i] : [...at, 'fields', i, 'field'];
        const field = this.field(itemPath, item.field);
        if (seen.has(item.field)) this.ctx.report(this.file, itemPath, 'duplicate-field', `field '${item.field}' already appears on this screen`);
        seen.add(item.field);
        if (typeof ref !== 'string' && field) this.fieldItem([...at, 'fields', i], ref, field);
      });
    });
  }

  /** A section's `each`: a detail's, over a declared field; its items' fields are declared too (checked as the section's). */
  private each(at: JsonPath, each: NonNullable<Section['each']>, seen: Set<string>): void {
    if (this.file.value.kind !== 'detail') this.ctx.report(this.file, at, 'screen-link', "'each' repeats a detail's section: a form edits one record", 'key');
    this.field([...at, 'field'], each.field);
    if (seen.has(each.field)) this.ctx.report(this.file, [...at, 'field'], 'duplicate-field', `field '${each.field}' already appears on this screen`);
    seen.add(each.field);
  }

  private fieldItem(at: JsonPath, item: FieldItem, field: Field): void {
    if (item.component !== undefined || item['x-formily'] !== undefined) this.ctx.escapeHatches.add(this.file.value.id);
    if (item.sameAs !== undefined) this.field([...at, 'sameAs', 'field'], item.sameAs.field);
    if (item.sms !== undefined) {
      item.sms.fields.forEach((name, i) => this.field([...at, 'sms', 'fields', i], name));
      this.placeholders([...at, 'sms', 'send'], item.sms.send, new Set(item.sms.fields), 'sms.fields');
    }
    for (const key of ['when', 'disabledWhen'] as const) if (item[key] !== undefined) this.expression([...at, key], item[key]);
    if (item.optionsFrom !== undefined) this.optionsFrom([...at, 'optionsFrom'], item, field);
    if (item.optionTree !== undefined && field.type !== 'multiDict' && field.type !== 'string')
      this.ctx.report(
        this.file,
        [...at, 'optionTree'],
        'field-type',
        `'optionTree' holds a list of values: '${item.field}' is of type ${field.type} (multiDict or string)`,
      );
    if (item.fields !== undefined) this.subTableFields([...at, 'fields'], item, field);
    if (item.serverValue !== undefined) this.serverValue([...at, 'serverValue'], item, field);
    if (item.columnServerValues !== undefined) this.columnServerValues([...at, 'columnServerValues'], item, field);
  }

  /** A value the server computes live: on an editable screen, into a read-only field, from other fields. */
  private serverValue(at: JsonPath, item: FieldItem, field: Field): void {
    const { kind } = this.file.value;
    if (kind !== 'form' && kind !== 'wizard')
      this.ctx.report(this.file, at, 'field-type', `serverValue applies to form and wizard screens, not to a ${kind} screen`, 'key');
    if (!field.readonly && !item.readonly)
      this.ctx.report(this.file, at, 'field-type', `'${item.field}' takes its value from the server (serverValue): make it readonly`, 'key');
    if (field.type === 'children' || field.type === 'attachment')
      this.ctx.report(this.file, at, 'field-type', `serverValue cannot fill '${item.field}' (type ${field.type})`, 'key');
    item.serverValue!.send.forEach((name, i) => {
      this.field([...at, 'send', i], name);
      if (name === item.field) this.ctx.report(this.file, [...at, 'send', i], 'field-type', `'${item.field}' cannot be sent for its own value`);
    });
  }

  /** A dependent dictionary field takes its options from the parent's choice in the same dictionary. */
  private optionsFrom(at: JsonPath, item: FieldItem, field: Field): void {
    const parent = this.field(at, item.optionsFrom!);
    if (!parent) return;
    if (item.optionsFrom === item.field) this.ctx.report(this.file, at, 'field-type', `'${item.field}' cannot take its options from itself`);
    else if (!isDictType(field.type) || !isDictType(parent.type) || field.dict !== parent.dict) {
      this.ctx.report(
        this.file,
        at,
        'field-type',
        `optionsFrom needs two fields of the same dictionary ('${item.field}': ${field.dict ?? field.type}, '${item.optionsFrom}': ${parent.dict ?? parent.type})`,
      );
    }
  }

  /** Sub-table columns are fields of the child resource. */
  private subTableFields(at: JsonPath, item: FieldItem, field: Field): void {
    if (field.type !== 'children') {
      this.ctx.report(this.file, at, 'field-type', `'fields' lists sub-table columns, but '${item.field}' is not a sub-table (type ${field.type})`, 'key');
      return;
    }
    const child = this.ctx.resources.get(field.resource!);
    if (!child?.valid) return;
    const childFields = resourceFields(child.file.value);
    item.fields!.forEach((name, i) => {
      if (!childFields.has(name)) this.ctx.report(this.file, [...at, i], 'unknown-field', `resource '${field.resource}' has no field '${name}'`);
    });
  }

  /** Per-row server values: of read-only columns shown in the sub-table, from fields of the same row. */
  private columnServerValues(at: JsonPath, item: FieldItem, field: Field): void {
    const child = field.type === 'children' ? this.ctx.resources.get(field.resource!) : undefined;
    if (!child) {
      this.ctx.report(this.file, at, 'field-type', `columnServerValues needs a sub-table, but '${item.field}' is of type ${field.type}`, 'key');
      return;
    }
    if (!child.valid) return;
    const childFields = resourceFields(child.file.value);
    for (const [column, spec] of Object.entries(item.columnServerValues!)) {
      const columnField = childFields.get(column);
      if (!columnField || !item.fields?.includes(column))
        this.ctx.report(this.file, [...at, column], 'unknown-field', `'${column}' is not a column of this sub-table (its 'fields')`, 'key');
      else if (!columnField.readonly)
        this.ctx.report(this.file, [...at, column], 'field-type', `'${column}' takes its value from the server: make it readonly`, 'key');
      spec!.send.forEach((name, i) => {
        if (!childFields.has(name))
          this.ctx.report(this.file, [...at, column, 'send', i], 'unknown-field', `resource '${field.resource}' has no field '${name}'`);
        else if (name === column) this.ctx.report(this.file, [...at, column, 'send', i], 'field-type', `'${column}' cannot be sent for its own value`);
      });
    }
  }

  private actionRefs(path: JsonPath, refs: readonly ActionRef[] | undefined, screenActions: readonly (keyof typeof SCREEN_ACTIONS)[], list?: ListScreen): void {
    refs?.forEach((ref, i) => {
      const action = typeof ref === 'string' ? ref : ref.action;
      const at = typeof ref === 'string' ? [...path, i] : [...path, i, 'action'];
      if (typeof ref !== 'string' && (ref.call !== undefined || ref.to !== undefined || ref.dialog !== undefined || ref.formDialog !== undefined)) {
        const detail = this.file.value.kind === 'detail' && path[0] === 'actions';
        this.plainButton([...path, i], ref, list !== undefined && path[0] === 'rowActions', detail);
        return;
      }
      if (typeof ref !== 'string' && ref.open !== undefined) {
        if (!this.ctx.screens.has(ref.open))
          this.ctx.report(this.file, [...path, i, 'open'], 'unknown-screen', `no screen '${ref.open}' (schemas/screens/${ref.open}.json)`);
        if (ref.label === undefined) this.ctx.report(this.file, [...path, i], 'label', `a button that opens a screen needs a label`);
        if (ref.when !== undefined) this.expression([...path, i, 'when'], ref.when);
        return;
      }
      if (list?.source && !screenActions.includes(action)) {
        this.ctx.report(this.file, at, 'unknown-action', `'${action}': a list over a 'source' runs no resource action; use 'call', 'to' or 'dialog'`);
        return;
      }
      if (!this.actions.has(action) && !screenActions.includes(action)) {
        const offered = [...this.actions, ...screenActions].join(', ');
        this.ctx.report(this.file, at, 'unknown-action', `'${action}' is not an action of resource '${this.resource.name}' here (${offered})`);
      }
      const needs = action === 'edit' ? 'form' : action === 'view' ? 'detail' : undefined;
      if (list && needs && list[needs] === undefined) this.ctx.report(this.file, at, 'screen-link', `'${action}' needs the list's '${needs}' screen`);
      if (typeof ref !== 'string' && ref.when !== undefined) this.expression([...path, i, 'when'], ref.when);
    });
  }

  /** A detail without a resource reads a `source` and declares its `fields`. */
  private detailSource(screen: DetailScreen): void {
    if (screen.resource === undefined && (screen.source === undefined || screen.fields === undefined))
      this.ctx.report(this.file, ['kind'], 'screen-link', "a detail without 'resource' reads a 'source' and declares its 'fields'");
    if (screen.fields !== undefined && screen.source === undefined)
      this.ctx.report(this.file, ['fields'], 'screen-link', "a detail declares 'fields' only with a 'source' (a resource's record has its fields)", 'key');
  }

  /** A list without a resource reads a `source` and declares its `fields`; such a list has no batch actions. */
  private listSource(screen: ListScreen): void {
    if (screen.resource === undefined && (screen.source === undefined || screen.fields === undefined))
      this.ctx.report(this.file, ['kind'], 'screen-link', "a list without 'resource' reads a 'source' and declares its 'fields'");
    if (screen.fields !== undefined && screen.source === undefined)
      this.ctx.report(this.file, ['fields'], 'screen-link', "a list declares 'fields' only with a 'source' (the rows of a resource have its fields)", 'key');
    if (screen.source && screen.batchActions?.length)
      this.ctx.report(this.file, ['batchActions'], 'screen-link', "a list over a 'source' has no batch actions", 'key');
  }

  /** A button that calls an API path, opens a route or a dialog: a list's row button (a detail's, for a call), with a label, doing one thing. */
  private plainButton(at: JsonPath, ref: Exclude<ActionRef, string>, inListRow: boolean, inDetail = false): void {
    const targets = (['open', 'call', 'to', 'dialog', 'formDialog'] as const).filter((key) => ref[key] !== undefined);
    if (ref.formDialog !== undefined) this.formDialog([...at, 'formDialog'], ref.formDialog);
    if (!inListRow && !(inDetail && targets.length === 1 && targets[0] === 'call'))
      this.ctx.report(this.file, at, 'screen-link', `'${targets.join("', '")}' is a list's row button${inDetail ? " (a detail's may 'call')" : ''}`);
    if (targets.length > 1) this.ctx.report(this.file, at, 'screen-link', `a button does one thing: '${targets.join("' or '")}'`);
    if (ref.label === undefined) this.ctx.report(this.file, at, 'label', 'a button that calls a path or opens a route or dialog needs a label');
    if (ref.done !== undefined && ref.call === undefined)
      this.ctx.report(this.file, [...at, 'done'], 'screen-link', "'done' is the message of a 'call'", 'key');
    if (ref.to !== undefined && this.ctx.routes && !this.ctx.routes.has(ref.to))
      this.ctx.report(this.file, [...at, 'to'], 'unknown-route', `no route '${ref.to}' in the menu`);
    if (ref.when !== undefined) this.expression([...at, 'when'], ref.when);
  }

  /** A `formDialog`: a form screen (of any resource: it saves on its own), one that adds or edits in the shell (no `submit`). */
  private formDialog(at: JsonPath, id: string): void {
    const target = this.ctx.screens.get(id);
    if (!target) return void this.ctx.report(this.file, at, 'unknown-screen', `no screen '${id}' (schemas/screens/${id}.json)`);
    if (!target.valid) return;
    const form = target.file.value;
    if (form.kind !== 'form' || form.submit !== undefined)
      this.ctx.report(
        this.file,
        at,
        'screen-link',
        `'formDialog' opens a form screen of the shell: '${id}' is ${form.kind === 'form' ? 'an open form (submit)' : `a ${form.kind} screen`}`,
      );
  }

  private linkedScreen(at: JsonPath, id: string, kinds: readonly string[]): void {
    const target = this.ctx.screens.get(id);
    if (!target) {
      this.ctx.report(this.file, at, 'unknown-screen', `no screen '${id}' (schemas/screens/${id}.json)`);
      return;
    }
    if (!target.valid) return;
    const { kind, resource } = target.file.value;
    if (!kinds.includes(kind)) this.ctx.report(this.file, at, 'screen-link', `screen '${id}' is a ${kind} screen; expected ${kinds.join(' or ')}`);
    else if (resource !== this.resource.name)
      this.ctx.report(this.file, at, 'screen-link', `screen '${id}' shows resource '${resource}', not '${this.resource.name}'`);
  }

  private field(at: JsonPath, name: string): Field | undefined {
    const field = this.fields.get(name);
    if (!field) this.ctx.report(this.file, at, 'unknown-field', `resource '${this.resource.name}' has no field '${name}'`);
    return field;
  }

  private listableField(at: JsonPath, name: string, verb: string): Field | undefined {
    const field = this.field(at, name);
    if (field && !isListable(field.type)) this.ctx.report(this.file, at, 'field-type', `a list cannot ${verb} '${name}' (type ${field.type})`);
    return field;
  }

  private sortableField(at: JsonPath, name: string): void {
    const field = this.listableField(at, name, 'sort by');
    if (field && isListable(field.type) && !isSortable(field.type))
      this.ctx.report(this.file, at, 'field-type', `a list cannot sort by '${name}' (type ${field.type})`);
  }

  private expression(at: JsonPath, text: string): void {
    checkExpression(this.ctx, this.file, at, text, this.names, this.resource.name);
  }
}
