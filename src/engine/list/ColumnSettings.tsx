/**
 * A list's column settings, remembered per screen in this browser: which columns show, in which
 * order, and the row density. The button opens them; 重置 restores the screen's own.
 */
import { ArrowDownOutlined, ArrowUpOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Divider, Popover, Segmented, Space, Typography } from 'antd';
import { useStoredState } from './useStoredState';

export type Density = 'middle' | 'small';

const isNames = (value: unknown): value is string[] => Array.isArray(value) && value.every((n) => typeof n === 'string');
const isDensity = (value: unknown): value is Density => value === 'middle' || value === 'small';

export interface ColumnSettingsState {
  /** Column names in the user's order, hidden ones left out. */
  shown: (names: readonly string[]) => string[];
  density: Density;
  control: React.ReactNode;
}

/** The settings of the columns `columns` (name and label) of screen `screenId`. */
export function useColumnSettings(screenId: string, columns: readonly { name: string; label: string }[]): ColumnSettingsState {
  const [hidden, setHidden] = useStoredState(`engine:hidden-columns:${screenId}`, () => [], isNames);
  const [order, setOrder] = useStoredState<string[]>(`engine:column-order:${screenId}`, () => [], isNames);
  const [density, setDensity] = useStoredState<Density>(`engine:density:${screenId}`, () => 'middle', isDensity);

  // The user's order first (names the screen still has), then columns it does not know yet.
  const names = columns.map((c) => c.name);
  const ordered = [...order.filter((n) => names.includes(n)), ...names.filter((n) => !order.includes(n))];
  const labelOf = (name: string) => columns.find((c) => c.name === name)?.label ?? name;
  const move = (index: number, by: -1 | 1) => {
    const next = [...ordered];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    setOrder(next);
  };

  const content = (
    <div style={{ minWidth: 220 }}>
      {ordered.map((name, i) => (
        <div key={name} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          <Checkbox
            style={{ flex: 1 }}
            checked={!hidden.includes(name)}
            onChange={(e) => setHidden(e.target.checked ? hidden.filter((n) => n !== name) : [...hidden, name])}
          >
            {labelOf(name)}
          </Checkbox>
          <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={`上移${labelOf(name)}`} disabled={i === 0} onClick={() => move(i, -1)} />
          <Button
            type="text"
            size="small"
            icon={<ArrowDownOutlined />}
            aria-label={`下移${labelOf(name)}`}
            disabled={i === ordered.length - 1}
            onClick={() => move(i, 1)}
          />
        </div>
      ))}
      <Divider style={{ margin: '8px 0' }} />
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space size={4}>
          <Typography.Text type="secondary">行高</Typography.Text>
          <Segmented<Density>
            size="small"
            value={density}
            onChange={setDensity}
            options={[
              { value: 'middle', label: '默认' },
              { value: 'small', label: '紧凑' },
            ]}
          />
        </Space>
        <Button
          type="link"
          size="small"
          onClick={() => {
            setHidden([]);
            setOrder([]);
            setDensity('middle');
          }}
        >
          重置
        </Button>
      </Space>
    </div>
  );

  return {
    shown: (list) => ordered.filter((n) => list.includes(n) && !hidden.includes(n)),
    density,
    control: (
      <Popover trigger="click" placement="bottomRight" title="列设置" content={content}>
        <Button icon={<SettingOutlined />} aria-label="列设置" />
      </Popover>
    ),
  };
}
