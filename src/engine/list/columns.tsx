/** A list screen's columns as antd Table columns: renders by kind, links, sorting, width, fixed. */
import { Tag, Tooltip, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { RecordData, SortSpec } from '../data/provider';
import { codesOf, type CodeItem } from '../model/codes';
import { resolveField } from '../model/fields';
import { isCoded } from '../../schema/model';
import { fieldKind } from '../../schema/kinds';
import type { ColumnItem, Field, ListColumn, ListScreen } from '../../schema/types';
import type { ScreenBundle } from '../registry/registry';
import { RefName } from '../render/RefName';
import { CodeTags, DeadlineMark, EMPTY_TEXT, emptyTextOf, formatDate, formatDateTime, formatMoney, formatValue } from '../render/values';
import { isAvailable, type ActionContext, type ResolvedAction } from '../actions/actions';

export type RenderKind = NonNullable<ColumnItem['render']>;

export interface ColumnSpec {
  name: string;
  label: string;
  field: Field;
  codes: CodeItem[];
  render: RenderKind;
  item: ColumnItem;
}

function defaultRender(field: Field, coded: boolean): RenderKind {
  return coded ? 'dictTag' : fieldKind(field.type).column;
}

export function columnSpecs({ screen, resource, dicts }: Pick<ScreenBundle, 'resource' | 'dicts'> & { screen: ListScreen }): ColumnSpec[] {
  return screen.columns.map((ref: ListColumn) => {
    const item: ColumnItem = typeof ref === 'string' ? { field: ref } : ref;
    const { name, field, label } = resolveField(resource, item);
    const codes = codesOf(resource, name, field, dicts);
    return { name, label, field, codes, item, render: item.render ?? defaultRender(field, isCoded(resource, name, field)) };
  });
}

type CellRenderer = (spec: ColumnSpec, value: unknown, href?: string) => ReactNode;

const text = (s: string, spec?: ColumnSpec): ReactNode => (s === '' ? (spec ? emptyTextOf(spec.field) : EMPTY_TEXT) : s);

/** A reference cell reads as the record it names (labels of a page fetched in one request per resource). */
const refName = (spec: ColumnSpec, value: unknown): ReactNode | undefined =>
  spec.field.type === 'ref' && spec.field.ref && typeof value === 'string' && value ? <RefName resource={spec.field.ref} id={value} /> : undefined;

/** Cell renderers by render kind (a new kind is a new entry). */
export const CELL_RENDERERS: Readonly<Record<RenderKind, CellRenderer>> = {
  text: (spec, value) => refName(spec, value) ?? text(formatValue(spec.field, spec.codes, value), spec),
  dictTag: (spec, value) => <CodeTags codes={spec.codes} value={value} />,
  date: (_spec, value) => text(formatDate(value)),
  datetime: (_spec, value) => text(formatDateTime(value)),
  money: (spec, value) => text(formatMoney(value), spec),
  ellipsis: (spec, value) => {
    const ref = refName(spec, value);
    if (ref) return ref;
    const s = formatValue(spec.field, spec.codes, value);
    return s === '' ? (
      EMPTY_TEXT
    ) : (
      <Tooltip title={s} placement="topLeft">
        {/* Held to the column's width: the table sizes to its content (max-content), which a long value would otherwise widen. */}
        <span style={spec.item.width ? { display: 'block', maxWidth: spec.item.width - 16, overflow: 'hidden', textOverflow: 'ellipsis' } : undefined}>
          {s}
        </span>
      </Tooltip>
    );
  },
  lines: (spec, value) => {
    const s = formatValue(spec.field, spec.codes, value);
    if (s === '') return EMPTY_TEXT;
    // Each line as written (a list of changes, an address block), three at most; the rest in the tooltip.
    return (
      <Tooltip title={<span style={{ whiteSpace: 'pre-line' }}>{s}</span>} placement="topLeft" overlayStyle={{ maxWidth: 560 }}>
        {/* A set width: the table sizes to its content (max-content), which a paragraph would otherwise stretch to its longest line. */}
        <Typography.Paragraph
          ellipsis={{ rows: 3 }}
          style={{ whiteSpace: 'pre-line', wordBreak: 'break-all', marginBottom: 0, width: Math.max(120, (spec.item.width ?? 280) - 16) }}
        >
          {s}
        </Typography.Paragraph>
      </Tooltip>
    );
  },
  link: (spec, value, href) => {
    const s = refName(spec, value) ?? (formatValue(spec.field, spec.codes, value) || EMPTY_TEXT);
    return href ? <Link to={href}>{s}</Link> : <Typography.Text>{s}</Typography.Text>;
  },
  // Whether any file is uploaded (an attachment column): the list filter on the field asks the same.
  presence: (_spec, value) => {
    const files = Array.isArray(value) ? value.length : 0;
    return files > 0 ? <Tag color="success">{files > 1 ? `已上传（${files}）` : '已上传'}</Tag> : <Tag>未上传</Tag>;
  },
};

export interface ColumnOptions {
  sort?: SortSpec;
  /** Address a `link` cell goes to (the column's `to`, else the record's detail). */
  linkOf: (spec: ColumnSpec, row: RecordData) => string | undefined;
  /** Searches the list for a cell's value (columns with `filterOnClick`). */
  filterBy?: (spec: ColumnSpec, value: string) => void;
}

/** A column a clerk must see without scrolling: the record's state and the dates that matter (deadlines). */
export const isKeyColumn = (spec: ColumnSpec): boolean => spec.name === 'status' || Boolean(spec.field.deadline);

/** A cell that searches the list for its value (`filterOnClick`). */
function filterLink(spec: ColumnSpec, value: unknown, cell: ReactNode, filterBy: ColumnOptions['filterBy']): ReactNode {
  if (!spec.item.filterOnClick || !filterBy || typeof value !== 'string' || value === '') return cell;
  return (
    <Typography.Link title={`只看${spec.label}为“${value}”的记录`} onClick={() => filterBy(spec, value)} style={{ display: 'block' }}>
      {cell}
    </Typography.Link>
  );
}

export function tableColumns(specs: readonly ColumnSpec[], { sort, linkOf, filterBy }: ColumnOptions): ColumnType<RecordData>[] {
  return specs.map((spec) => ({
    // Marked for the screen audit, which checks the fixed 操作 column never covers it at 1366 px.
    onHeaderCell: isKeyColumn(spec) ? () => ({ 'data-key-column': spec.name }) as React.HTMLAttributes<HTMLElement> : undefined,
    key: spec.name,
    dataIndex: spec.name,
    title: spec.label,
    width: spec.item.width,
    fixed: spec.item.fixed,
    align: spec.item.align ?? (spec.render === 'money' ? 'right' : undefined),
    ellipsis: spec.render === 'ellipsis' ? { showTitle: false } : undefined,
    sorter: spec.item.sortable ? true : undefined,
    sortOrder: spec.item.sortable && sort?.field === spec.name ? (sort.order === 'desc' ? 'descend' : 'ascend') : null,
    render: (value: unknown, row: RecordData) => {
      const cell = filterLink(spec, value, CELL_RENDERERS[spec.render](spec, value, spec.render === 'link' ? linkOf(spec, row) : undefined), filterBy);
      return spec.field.deadline ? (
        <DeadlineMark field={spec.field} value={value} record={row}>
          {cell}
        </DeadlineMark>
      ) : (
        cell
      );
    },
  }));
}

/** Width of a small link button beside others: 18 px of padding and gap, a CJK character 14 px, another 8 px. */
const linkButtonWidth = (label: string) => 18 + [...label].reduce((w, ch) => w + (ch.charCodeAt(0) > 0xff ? 14 : 8), 0);

/**
 * The 操作 column's width: the widest set of buttons a row of this page offers (state, role, owner),
 * so a reader's 查看 does not hold the room of every action the screen declares; at most 320 px,
 * where the buttons wrap.
 */
export function actionsColumnWidth(rows: readonly RecordData[], actions: readonly ResolvedAction[], context: ActionContext): number {
  let widest = 0;
  for (const row of rows) {
    const width = actions.filter((a) => isAvailable(a, row, context)).reduce((w, a) => w + linkButtonWidth(a.label), 0);
    widest = Math.max(widest, width);
  }
  return Math.min(320, Math.max(72, widest + 32));
}
