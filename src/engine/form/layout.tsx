/**
 * The form's layout: titled sections and their grid of fields.
 *
 * FormGrid is a CSS grid (`columns` of the section; a field's `span` → FormItem's data-grid-span,
 * layout.css) — no per-child measurement in script. Narrow containers fall back to fewer columns
 * with container queries.
 *
 * FormSection renders its fields only when they are about to be seen: the sections that fill the
 * first screen render at once (estimated heights), the others show a placeholder of about their
 * height (aria-busy) and render when they come near the viewport, when the user has been idle for
 * a moment (one section at a time, so find-in-page and the Tab key reach every field soon), or
 * when a field of theirs has an error (a failed save). Their fields exist in the form model from
 * the start — created from the same schema with the same props Formily's own Field would use —
 * so values, reactions, validation and submit cover every field; mounting later only attaches
 * the components. Sections with sub-tables or object fields (whose rows are created by their
 * components) always render at once. A rendered section off screen skips style, layout and paint
 * (content-visibility: auto, layout.css): typing in one field does not pay for the others.
 *
 * A long grid (taller than three chunks: a form of one big section) is cut the same way inside: into
 * chunks of whole rows of about CHUNK_HEIGHT, each a grid of the section's columns, rendered at
 * once when on the first screen, else near the viewport, on idle (in document order, after the
 * chunks and sections above) or when a field of theirs has an error, and skipped off screen.
 */
import type { Form, GeneralField } from '@formily/core';
import { observer, RecursionField, Schema, useExpressionScope, useField, useFieldSchema, useForm, type ISchema } from '@formily/react';
import { Typography } from 'antd';
import { startTransition, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import './layout.css';

/**
 * Label column of every form. Labels do not wrap (a wrapped Chinese label breaks inside a word and
 * leaves the colon mid-label): the column is as wide as the form's longest label needs, between
 * 136 and 224 px (up to 13 characters shown whole beside a half-width field at 1366 px); a label
 * longer still ends in an ellipsis, with the colon after it, and shows in full in a tooltip.
 */
export const FORM_LAYOUT = { labelWidth: 136, feedbackLayout: 'loose' } as const;

const LABEL_WIDTH = { min: FORM_LAYOUT.labelWidth, max: 224, perCharacter: 14, extra: 34 } as const;

/** The titles of a compiled form's decorated fields (sub-table cells carry none). */
function labelsOf(schema: ISchema, into: string[] = []): string[] {
  for (const child of Object.values(schema.properties ?? {})) {
    if (typeof child !== 'object' || child === null) continue;
    const node = child as ISchema;
    if (node['x-decorator'] === 'FormItem' && typeof node.title === 'string') into.push(node.title);
    labelsOf(node, into);
  }
  return into;
}

/** FORM_LAYOUT with the label column sized for `schema`'s longest label (characters, not UTF-16 units). */
export function formLayout(schema: ISchema): FormLayout {
  const hit = layouts.get(schema);
  if (hit) return hit;
  const longest = Math.max(0, ...labelsOf(schema).map((label) => Array.from(label).length));
  const width = Math.min(LABEL_WIDTH.max, Math.max(LABEL_WIDTH.min, longest * LABEL_WIDTH.perCharacter + LABEL_WIDTH.extra));
  const layout = { ...FORM_LAYOUT, labelWidth: width };
  layouts.set(schema, layout);
  return layout;
}

type FormLayout = { labelWidth: number; feedbackLayout: 'loose' };
/** Compiled schemas are cached per screen, so their layouts are too. */
const layouts = new WeakMap<ISchema, FormLayout>();

// ---------------------------------------------------------------------------------------------
// grid

export interface FormGridProps {
  /** The section's columns. */
  maxColumns?: number;
  /** Accepted for schemas written for @formily/antd's FormGrid; narrow screens go down to one column. */
  minColumns?: number;
  columnGap?: number;
  rowGap?: number;
  children?: ReactNode;
}

const gridStyle = (columns: number, columnGap: number, rowGap: number) => ({ '--engine-grid-columns': columns, columnGap, rowGap }) as CSSProperties;

export function FormGrid({ maxColumns = 2, columnGap = 24, rowGap = 4, children }: FormGridProps) {
  const columns = Math.max(1, Math.min(4, Math.round(maxColumns)));
  // The grid's own schema when it is a schema's void field (FormSection > FormGrid); none in plain JSX.
  const schema = useFieldSchema() as Schema | undefined;
  const chunks = useMemo(() => (schema?.['x-component'] === 'FormGrid' ? gridChunks(schema) : undefined), [schema]);
  if (chunks) {
    const style = gridStyle(columns, columnGap, rowGap);
    return (
      <div className="engine-form-grid-box">
        {chunks.map((chunk, index) => (
          <GridChunk key={index} index={index} chunk={chunk} columns={columns} style={style} />
        ))}
      </div>
    );
  }
  return (
    <div className="engine-form-grid-box">
      <div className="engine-form-grid" data-columns={columns} style={gridStyle(columns, columnGap, rowGap)}>
        {children}
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// what a section holds

export interface SectionPlan {
  /** Only void and plain fields: they can live in the model without their components. */
  lazy: boolean;
  /** Estimated height of the fields (px), for the placeholder and the first-screen budget. */
  height: number;
}

/** A row of fields with its gap (an input and the loose feedback line), a text area's row. */
const ROW_HEIGHT = 60;
const TEXTAREA_HEIGHT = 132;
const TITLE_HEIGHT = 46;

/** A node's child schemas in `x-index` order (Formily types the list `any[]`; each item is `{ key, schema }`). */
const orderedChildren = (node: Schema) => Schema.getOrderProperties(node) as { key: string; schema: Schema }[];

const gridColumnsOf = (schema: Schema): number => Number((schema['x-component-props'] as { maxColumns?: number } | undefined)?.maxColumns ?? 1) || 1;

type Entry = { key: string; schema: Schema };

interface Row {
  entries: Entry[];
  height: number;
}

/** Fields laid out in rows of `columns` (a field's span, a text area's height) as the CSS grid places them. */
function rowsOf(entries: readonly Entry[], columns: number): Row[] {
  const rows: Row[] = [];
  let row: Row | undefined;
  let used = 0;
  for (const entry of entries) {
    const child = entry.schema;
    const span = Math.min(columns, Number((child['x-decorator-props'] as { gridSpan?: number } | undefined)?.gridSpan ?? 1) || 1);
    const cell = child['x-component'] === 'Input.TextArea' || child['x-component'] === 'RichTextInput' ? TEXTAREA_HEIGHT : ROW_HEIGHT;
    if (!row || used + span > columns) {
      rows.push((row = { entries: [], height: 0 }));
      used = 0;
    }
    used += span;
    row.entries.push(entry);
    row.height = Math.max(row.height, cell);
  }
  return rows;
}

const sum = (rows: readonly { height: number }[]) => rows.reduce((total, r) => total + r.height, 0);

/** A field that needs its component to exist (rows of a sub-table, an object's fields, a slot). */
const needsComponent = (node: Schema) => node.type === 'object' || Boolean(node.items) || Boolean(node['x-slot-node']);

/** Exported for tests. */
export function planOf(section: Schema): SectionPlan {
  let lazy = true;
  let height = 0;
  const walk = (node: Schema, columns: number) => {
    const fields: Entry[] = [];
    for (const entry of orderedChildren(node)) {
      if (needsComponent(entry.schema)) lazy = false;
      if (entry.schema.type === 'void') walk(entry.schema, entry.schema['x-component'] === 'FormGrid' ? gridColumnsOf(entry.schema) : 1);
      else fields.push(entry);
    }
    height += sum(rowsOf(fields, columns));
  };
  walk(section, 1);
  return { lazy, height };
}

/** A part of a long grid: whole rows, rendered as a section is (when reached). */
export interface GridChunk {
  entries: Entry[];
  /** Estimated height (px). */
  height: number;
}

/** Rows of a chunk add up to about this height (8 rows of inputs)… */
const CHUNK_HEIGHT = 8 * ROW_HEIGHT;

/**
 * A grid's fields cut into chunks of whole rows, or undefined when the grid is not worth cutting
 * (at most three chunks tall: a grid of a few screens keeps the section's own laziness — cutting
 * one of ~1,000 px cost its keystrokes ~9 ms of CPU in bench:form) or holds a field that needs
 * its component (exported for tests).
 */
export function gridChunks(grid: Schema): GridChunk[] | undefined {
  const entries = orderedChildren(grid);
  if (entries.some((e) => e.schema.type === 'void' || needsComponent(e.schema))) return undefined;
  const rows = rowsOf(entries, gridColumnsOf(grid));
  if (sum(rows) <= 3 * CHUNK_HEIGHT) return undefined;
  const chunks: GridChunk[] = [];
  let chunk: GridChunk | undefined;
  for (const row of rows) {
    if (!chunk || chunk.height + row.height > CHUNK_HEIGHT) chunks.push((chunk = { entries: [], height: 0 }));
    chunk.entries.push(...row.entries);
    chunk.height += row.height;
  }
  return chunks;
}

/** The section's only grid, when it is cut into chunks (the chunks then decide for themselves). */
function chunkedGrid(section: Schema): boolean {
  const children = orderedChildren(section);
  return children.length === 1 && children[0].schema['x-component'] === 'FormGrid' && gridChunks(children[0].schema) !== undefined;
}

/** The fields of a section (or a chunk's `entries`) not rendered yet, created in the model as Formily's Field would create them (exported for tests). */
export function createModels(form: Form, parent: GeneralField, node: Schema | readonly Entry[], scope: unknown): GeneralField[] {
  const created: GeneralField[] = [];
  for (const { key, schema } of Array.isArray(node) ? (node as readonly Entry[]) : orderedChildren(node as Schema)) {
    const props = { ...schema.toFieldProps({ scope: scope as Record<string, unknown> }), name: key, basePath: parent.address };
    if (schema.type === 'void') {
      const group = form.createVoidField(props as Parameters<Form['createVoidField']>[0]);
      created.push(group, ...createModels(form, group, schema, scope));
    } else if (schema.type === 'array') created.push(form.createArrayField(props as Parameters<Form['createArrayField']>[0]));
    else created.push(form.createField(props as Parameters<Form['createField']>[0]));
  }
  return created;
}

// ---------------------------------------------------------------------------------------------
// per form: the first-screen budget, revealed sections, the idle fill

/** Sections are revealed one at a time once nobody has typed or scrolled for this long… */
const IDLE_FILL_DELAY_MS = 600;
/** …and the next one shortly after (in idle time: a keystroke is never queued behind more than one section). */
const NEXT_SECTION_DELAY_MS = 30;
/** Placeholders this close to the viewport render. */
const NEAR_VIEWPORT = '400px 0px';

interface Pending {
  key: string;
  reveal(): void;
  /** The placeholder: the idle fill goes down the page in document order. */
  element: Element;
}

class LazySections {
  private used = 0;
  private readonly decided = new Map<string, boolean>();
  readonly revealed = new Set<string>();
  private pending: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private listening = false;

  /** Whether a section or chunk renders at once: it is (estimated to be) on the first screen; `height` with its title. */
  firstScreen(key: string, height: number): boolean {
    let decision = this.decided.get(key);
    if (decision === undefined) {
      const budget = typeof window === 'undefined' ? Infinity : window.innerHeight * 1.25;
      decision = this.used < budget;
      this.used += height;
      this.decided.set(key, decision);
    }
    return decision || this.revealed.has(key);
  }

  wait(entry: Pending): () => void {
    // A section revealed late adds its chunks after the sections below it were queued: keep the page's order.
    const after = this.pending.findIndex((p) => entry.element.compareDocumentPosition(p.element) & Node.DOCUMENT_POSITION_FOLLOWING);
    if (after < 0) this.pending.push(entry);
    else this.pending.splice(after, 0, entry);
    this.schedule();
    return () => {
      this.pending = this.pending.filter((p) => p !== entry);
      if (this.pending.length === 0) this.stop();
    };
  }

  /** A section rendered: the next one may follow when the page is idle. */
  done(key: string): void {
    this.revealed.add(key);
    this.pending = this.pending.filter((p) => p.key !== key);
    this.schedule(NEXT_SECTION_DELAY_MS);
  }

  private readonly postpone = () => {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.fill, IDLE_FILL_DELAY_MS);
  };

  private schedule(delay = IDLE_FILL_DELAY_MS): void {
    if (this.pending.length === 0) return this.stop();
    if (this.timer !== undefined || typeof window === 'undefined') return;
    if (!this.listening) {
      this.listening = true;
      for (const type of ['keydown', 'input', 'wheel', 'pointerdown', 'scroll']) window.addEventListener(type, this.postpone, { capture: true, passive: true });
    }
    this.timer = setTimeout(this.fill, delay);
  }

  private readonly fill = () => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
    idle(() => {
      this.timer = undefined;
      const next = this.pending[0];
      if (next) startTransition(next.reveal);
      else this.stop();
    });
  };

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.listening) return;
    this.listening = false;
    for (const type of ['keydown', 'input', 'wheel', 'pointerdown', 'scroll']) window.removeEventListener(type, this.postpone, { capture: true });
  }
}

const lazyOf = new WeakMap<Form, LazySections>();
const lazySections = (form: Form): LazySections => {
  let state = lazyOf.get(form);
  if (!state) lazyOf.set(form, (state = new LazySections()));
  return state;
};

// ---------------------------------------------------------------------------------------------
// section

const TITLE_STYLE: CSSProperties = { margin: '8px 0 16px', paddingLeft: 8, borderLeft: '3px solid var(--ant-color-primary, #1677ff)' };

/** Until revealed: a placeholder of about the fields' height, rendering them once it comes near the viewport or on idle. */
function Placeholder({ height, lazyKey, onReveal, style }: { height: number; lazyKey: string; onReveal: () => void; style?: CSSProperties }) {
  const ref = useRef<HTMLDivElement>(null);
  const form = useForm();
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const idle = lazySections(form).wait({ key: lazyKey, reveal: onReveal, element });
    if (typeof IntersectionObserver === 'undefined') return idle;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) startTransition(onReveal);
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      idle();
    };
  }, [form, lazyKey, onReveal]);
  return <div ref={ref} className="engine-form-section-pending" aria-busy="true" style={{ ...style, height }} />;
}

const hasErrors = (models: readonly GeneralField[]) => models.some((f) => 'selfErrors' in f && f.selfErrors.length > 0);

/**
 * Whether a lazily rendered part (a section, a chunk) shows its fields: at once on the first
 * screen, else when revealed, or in the very render where a field of `models` has an error (a
 * failed save shows its messages). Read in an observer.
 */
function useLazyPart(key: string, lazy: boolean, height: number, createPending: () => GeneralField[]) {
  const form = useForm();
  const parts = lazySections(form);
  const [shown, setShown] = useState(() => !lazy || parts.firstScreen(key, height));
  // Created once per form (createField returns the existing field when its component mounts).
  const [models] = useState(() => (shown ? [] : createPending()));
  const [reveal] = useState(() => () => setShown(true));
  const failed = !shown && hasErrors(models);
  useEffect(() => {
    if (shown) parts.done(key);
    else if (failed) setShown(true);
  }, [shown, failed, parts, key]);
  return { visible: shown || failed, reveal };
}

/** A titled block of fields (a `section` of the screen); an observer: errors of its fields not rendered yet render them. */
export const FormSection = observer(function FormSection({ title, children }: { title?: string; children?: ReactNode }) {
  const form = useForm();
  const field = useField();
  const schema = useFieldSchema();
  const scope: unknown = useExpressionScope();
  const [plan] = useState(() => planOf(schema));
  // A section of one long grid shows its title: its chunks decide for themselves.
  const [chunked] = useState(() => plan.lazy && chunkedGrid(schema));
  const key = field.address.toString();
  const { visible, reveal } = useLazyPart(key, plan.lazy, chunked ? TITLE_HEIGHT : plan.height + TITLE_HEIGHT, () => createModels(form, field, schema, scope));
  return (
    <section className="engine-form-section" style={{ containIntrinsicSize: `auto ${plan.height + TITLE_HEIGHT}px` }}>
      {title && (
        <Typography.Title level={5} style={TITLE_STYLE}>
          {title}
        </Typography.Title>
      )}
      {visible ? children : <Placeholder height={plan.height} lazyKey={key} onReveal={reveal} />}
    </section>
  );
});

const FULL_ROW: CSSProperties = { gridColumn: '1 / -1' };

/** Rows of a long grid (FormGrid's chunks): its fields, or a placeholder until reached; an observer like FormSection. */
const GridChunk = observer(function GridChunk({ chunk, index, columns, style }: { chunk: GridChunk; index: number; columns: number; style: CSSProperties }) {
  const form = useForm();
  const grid = useField();
  const scope: unknown = useExpressionScope();
  const key = `${grid.address.toString()}#${index}`;
  const { visible, reveal } = useLazyPart(key, true, chunk.height, () => createModels(form, grid, chunk.entries, scope));
  return (
    <div className="engine-form-grid engine-form-chunk" data-columns={columns} style={{ ...style, containIntrinsicSize: `auto ${chunk.height}px` }}>
      {visible ? (
        chunk.entries.map(({ key: name, schema }) => <RecursionField key={name} name={name} schema={schema} basePath={grid.address} />)
      ) : (
        <Placeholder height={chunk.height} lazyKey={key} onReveal={reveal} style={FULL_ROW} />
      )}
    </div>
  );
});
