/**
 * The rows of a sub-table field (`children`) in a detail: a small table with one column per field
 * of the child resource (the screen's `fields` for it, else every field the child declares), each
 * cell read like any other value.
 */
import { Table } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { codesOf } from '../model/codes';
import { resolveField } from '../model/fields';
import type { ScreenBundle } from '../registry/registry';
import { DisplayValue } from '../render/values';
import type { Field } from '../../schema/types';

type Row = Record<string, unknown>;

interface SubTableProps {
  field: Field;
  /** Columns named by the screen (child resource fields); default: all of the child's fields. */
  columns?: readonly string[];
  value: unknown;
  sources: Pick<ScreenBundle, 'resources' | 'dicts'>;
}

export default function SubTable({ field, columns, value, sources }: SubTableProps) {
  const child = field.resource ? sources.resources.get(field.resource) : undefined;
  const rows = Array.isArray(value) ? (value as Row[]) : [];
  if (!child) return null;
  const names =
    columns ??
    Object.entries(child.fields)
      .filter(([, f]) => f && f.type !== 'children')
      .map(([n]) => n);
  const tableColumns: ColumnType<Row>[] = [
    { key: '__index', title: '序号', width: 64, align: 'center', render: (_v, _r, i) => i + 1 },
    ...names.map((name): ColumnType<Row> => {
      const resolved = resolveField(child, name);
      const codes = codesOf(child, name, resolved.field, sources.dicts);
      return {
        key: name,
        dataIndex: name,
        title: resolved.label,
        align: resolved.field.type === 'money' ? 'right' : undefined,
        render: (v: unknown, row: Row) => <DisplayValue field={resolved.field} codes={codes} value={v} record={row} />,
      };
    }),
  ];
  return (
    <Table<Row>
      size="small"
      bordered
      pagination={false}
      rowKey={(r, i) => String(r.id ?? i)}
      columns={tableColumns}
      dataSource={rows}
      scroll={{ x: 'max-content' }}
    />
  );
}
