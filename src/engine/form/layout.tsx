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
 */
import type { Form, GeneralField } from '@formily/core';
import { observer, Schema, useExpressionScope, useField, useFieldSchema, useForm, type ISchema } from '@formily/react';
import { Typography } from 'antd';
import { startTransition, useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
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

export function FormGrid({ maxColumns = 2, columnGap = 24, rowGap = 4, children }: FormGridProps) {
  const columns = Math.max(1, Math.min(4, Math.round(maxColumns)));
  return (
    <div className="engine-form-grid-box">
      <div className="engine-form-grid" data-columns={columns} style={{ '--engine-grid-columns': columns, columnGap, rowGap } as CSSProperties}>
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

/** Exported for tests. */
export function planOf(section: Schema): SectionPlan {
  let lazy = true;
  let height = 0;
  const walk = (node: Schema, columns: number) => {
    let used = 0;
    let row = 0;
    for (const { schema: child } of orderedChildren(node)) {
      if (child.type === 'object' || child.items || child['x-slot-node']) lazy = false;
      if (child.type === 'void') {
        walk(child, child['x-component'] === 'FormGrid' ? gridColumnsOf(child) : 1);
        continue;
      }
      const span = Math.min(columns, Number((child['x-decorator-props'] as { gridSpan?: number } | undefined)?.gridSpan ?? 1) || 1);
      const cell = child['x-component'] === 'Input.TextArea' || child['x-component'] === 'RichTextInput' ? TEXTAREA_HEIGHT : ROW_HEIGHT;
      if (used + span > columns) {
        height += row;
        used = 0;
        row = 0;
      }
      used += span;
      row = Math.max(row, cell);
    }
    height += row;
  };
  walk(section, 1);
  return { lazy, height };
}

/** The fields of a section not rendered yet, created in the model as Formily's Field would create them (exported for tests). */
export function createModels(form: Form, parent: GeneralField, node: Schema, scope: unknown): GeneralField[] {
  const created: GeneralField[] = [];
  for (const { key, schema } of orderedChildren(node)) {
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
}

class LazySections {
  private used = 0;
  private readonly decided = new Map<string, boolean>();
  readonly revealed = new Set<string>();
  private pending: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private listening = false;

  /** Whether a section renders at once: it is (estimated to be) on the first screen. */
  firstScreen(key: string, height: number): boolean {
    let decision = this.decided.get(key);
    if (decision === undefined) {
      const budget = typeof window === 'undefined' ? Infinity : window.innerHeight * 1.25;
      decision = this.used < budget;
      this.used += height + TITLE_HEIGHT;
      this.decided.set(key, decision);
    }
    return decision || this.revealed.has(key);
  }

  wait(entry: Pending): () => void {
    this.pending.push(entry);
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

/** Until revealed: a placeholder of about the fields' height, rendering them once it comes near the viewport. */
function Placeholder({ height, onReveal }: { height: number; onReveal: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) startTransition(onReveal);
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [onReveal]);
  return <div ref={ref} className="engine-form-section-pending" aria-busy="true" style={{ height }} />;
}

const hasErrors = (models: readonly GeneralField[]) => models.some((f) => 'selfErrors' in f && f.selfErrors.length > 0);

/** A titled block of fields (a `section` of the screen); an observer: errors of its fields not rendered yet render them. */
export const FormSection = observer(function FormSection({ title, children }: { title?: string; children?: ReactNode }) {
  const form = useForm();
  const field = useField();
  const schema = useFieldSchema();
  const scope: unknown = useExpressionScope();
  const [plan] = useState(() => planOf(schema));
  const key = field.address.toString();
  const lazy = lazySections(form);
  const [shown, setShown] = useState(() => !plan.lazy || lazy.firstScreen(key, plan.height));
  // Created once per form (createField returns the existing field when its component mounts).
  const [models] = useState(() => (shown ? [] : createModels(form, field, schema, scope)));
  const [reveal] = useState(() => () => setShown(true));
  // A failed save shows the messages of these fields: render them in this very render.
  const failed = !shown && hasErrors(models);
  useEffect(() => {
    if (shown) lazy.done(key);
    else if (failed) setShown(true);
    else return lazy.wait({ key, reveal });
  }, [shown, failed, lazy, key, reveal]);
  return (
    <section className="engine-form-section" style={{ containIntrinsicSize: `auto ${plan.height + TITLE_HEIGHT}px` }}>
      {title && (
        <Typography.Title level={5} style={TITLE_STYLE}>
          {title}
        </Typography.Title>
      )}
      {shown || failed ? children : <Placeholder height={plan.height} onReveal={reveal} />}
    </section>
  );
});
