/**
 * The list toolbar's 对比: two chosen rows side by side, one line per field of the resource (the
 * sub-tables and attachments left out), the lines that differ marked; 只看不同 hides the rest.
 */
import { Modal, Switch, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { RecordData } from '../data/provider';
import { refLabelOf } from '../data/hooks';
import { codesOf } from '../model/codes';
import type { ScreenBundle } from '../registry/registry';
import { DisplayValue, formatValue } from '../render/values';

interface Line {
  key: string;
  label: string;
  differs: boolean;
  cells: [React.ReactNode, React.ReactNode];
}

/** Lines of the comparison of `rows` over the resource's own fields. */
export function compareLines({ resource, dicts }: Pick<ScreenBundle, 'resource' | 'dicts'>, rows: readonly [RecordData, RecordData]): Line[] {
  return Object.entries(resource.fields).flatMap(([name, field]) => {
    if (!field || field.type === 'children' || field.type === 'attachment') return [];
    const codes = codesOf(resource, name, field, dicts);
    const texts = rows.map((row) => (field.type === 'ref' ? String(row[name] ?? '') : formatValue(field, codes, row[name])));
    return [
      {
        key: name,
        label: field.label,
        differs: texts[0] !== texts[1],
        cells: rows.map((row) => <DisplayValue key={String(row.id)} field={field} codes={codes} value={row[name]} record={row} />) as Line['cells'],
      },
    ];
  });
}

export default function CompareDialog({
  bundle,
  rows,
  onClose,
}: {
  bundle: ScreenBundle;
  rows: readonly [RecordData, RecordData] | null;
  onClose: () => void;
}) {
  const [onlyDiff, setOnlyDiff] = useState(true);
  const lines = useMemo(() => (rows ? compareLines(bundle, rows) : []), [bundle, rows]);
  const title = refLabelOf(bundle.resource);
  const shown = onlyDiff ? lines.filter((l) => l.differs) : lines;
  return (
    <Modal open={rows !== null} title="记录对比" width={960} footer={null} onCancel={onClose} destroyOnHidden>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12 }}>
        <Typography.Text type="secondary">共 {lines.filter((l) => l.differs).length} 项不同</Typography.Text>
        <span>
          只看不同 <Switch size="small" checked={onlyDiff} onChange={setOnlyDiff} />
        </span>
      </div>
      <Table<Line>
        size="small"
        bordered
        pagination={false}
        scroll={{ y: 480 }}
        rowKey="key"
        dataSource={shown}
        rowClassName={(line) => (line.differs ? 'engine-compare-differs' : '')}
        locale={{ emptyText: '两条记录内容相同' }}
        columns={[
          { key: 'label', title: '字段', dataIndex: 'label', width: 180 },
          ...([0, 1] as const).map((i) => ({ key: `v${i}`, title: rows ? title(rows[i]) : '', render: (_: unknown, line: Line) => line.cells[i] })),
        ]}
      />
    </Modal>
  );
}
