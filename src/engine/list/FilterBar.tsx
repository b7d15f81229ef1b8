/** The filter form above a list: one input per filter, 查询 and 重置; many filters fold behind 展开. */
import { Button, Cascader, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { RefPicker } from '../form/RefPicker';
import { codePath, topLevel } from '../model/codes';
import { initialFilters, type FilterSpec, type FilterValues } from './filters';
import { useStoredState } from './useStoredState';

interface FilterBarProps {
  /** The screen's id: whether its fold is open is remembered per screen. */
  screenId: string;
  specs: readonly FilterSpec[];
  values: FilterValues;
  onSearch: (values: FilterValues) => void;
  onReset: () => void;
}

const DATE_FORMAT = 'YYYY-MM-DD';

function inputOf(spec: FilterSpec): ReactNode {
  const placeholder = spec.placeholder;
  switch (spec.input) {
    case 'codes':
      return (
        <Select
          mode={spec.single ? undefined : 'multiple'}
          allowClear
          maxTagCount="responsive"
          placeholder={placeholder ?? '全部'}
          options={topLevel(spec.codes).map((c) => ({ value: c.value, label: c.label }))}
        />
      );
    case 'area':
      return (
        <Cascader
          allowClear
          changeOnSelect
          placeholder={placeholder ?? '全部'}
          options={spec.codes}
          fieldNames={{ label: 'label', value: 'value', children: 'children' }}
        />
      );
    case 'bool':
      return (
        <Select
          allowClear
          placeholder={placeholder ?? '全部'}
          options={[
            { value: true, label: '是' },
            { value: false, label: '否' },
          ]}
        />
      );
    case 'presence':
      return (
        <Select
          allowClear
          placeholder={placeholder ?? '全部'}
          options={[
            { value: true, label: '已上传' },
            { value: false, label: '未上传' },
          ]}
        />
      );
    case 'dateRange':
      return <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: '100%' }} />;
    case 'number':
      return <InputNumber style={{ width: '100%' }} placeholder={placeholder} />;
    case 'numberRange':
      return (
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name={[spec.name, 0]} noStyle>
            <InputNumber style={{ width: '50%' }} placeholder="最小" />
          </Form.Item>
          <Form.Item name={[spec.name, 1]} noStyle>
            <InputNumber style={{ width: '50%' }} placeholder="最大" />
          </Form.Item>
        </Space.Compact>
      );
    case 'ref':
      return <RefPicker resource={spec.field.ref!} lazy allowClear placeholder={placeholder ?? '全部'} />;
    case 'text':
      return <Input allowClear placeholder={placeholder ?? `请输入${spec.label}`} />;
  }
}

/** URL-side values → form-side values (date ranges as dayjs, an area code as its path). */
function toForm(specs: readonly FilterSpec[], values: FilterValues): FilterValues {
  const out: FilterValues = {};
  for (const spec of specs) {
    const v = values[spec.name];
    if (spec.input === 'dateRange' && Array.isArray(v)) out[spec.name] = v.map((d) => (d ? dayjs(d as string) : null));
    else if (spec.input === 'area' && typeof v === 'string') out[spec.name] = codePath(spec.codes, v).map((c) => c.value);
    else out[spec.name] = v;
  }
  return out;
}

function fromForm(specs: readonly FilterSpec[], values: FilterValues): FilterValues {
  const out: FilterValues = {};
  for (const spec of specs) {
    const v = values[spec.name];
    if (spec.input === 'dateRange' && Array.isArray(v)) out[spec.name] = v.map((d) => (d ? (d as Dayjs).format(DATE_FORMAT) : undefined));
    else if (spec.input === 'area' && Array.isArray(v)) out[spec.name] = v.length ? v[v.length - 1] : undefined;
    else if (typeof v === 'string') out[spec.name] = v.trim();
    else out[spec.name] = v;
  }
  return out;
}

/** More filters than this fold behind 展开/收起; folded, the first row (COLLAPSED_COUNT) shows. */
const FOLD_ABOVE = 4;
const COLLAPSED_COUNT = 3;
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

const hasValue = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.every((x) => x === undefined || x === null || x === ''));

export default function FilterBar({ screenId, specs, values, onSearch, onReset }: FilterBarProps) {
  const [form] = Form.useForm();
  const foldable = specs.length > FOLD_ABOVE;
  const [open, setOpen] = useStoredState(`engine:filters-open:${screenId}`, () => false, isBoolean);
  const [expanded, setExpanded] = useState(open);
  const toggle = () => {
    setExpanded(!expanded);
    setOpen(!expanded);
  };
  // A folded filter set to other than its default (a restored, bookmarked or back-navigated list) opens the fold.
  const foldedValue =
    foldable && specs.slice(COLLAPSED_COUNT).some((spec) => hasValue(values[spec.name]) && JSON.stringify(values[spec.name]) !== JSON.stringify(spec.initial));
  useEffect(() => {
    if (foldedValue) setExpanded(true);
  }, [foldedValue]);
  // Follow the URL (back-navigation, reset), not only the user's typing. Only a change of the URL's
  // filters replaces the inputs: a tab shown again re-runs this effect, and typed text not yet
  // searched stays with the list's page, like its filters and paging.
  const applied = useRef<string | null>(null);
  useEffect(() => {
    const next = JSON.stringify([specs.map((s) => s.name), values]);
    if (applied.current === next) return;
    applied.current = next;
    form.resetFields();
    form.setFieldsValue(toForm(specs, values));
  }, [form, specs, values]);
  const reset = () => {
    form.resetFields();
    form.setFieldsValue(toForm(specs, initialFilters(specs)));
    onReset();
  };
  if (specs.length === 0) return null;
  const folded = foldable && !expanded;
  return (
    <Form
      form={form}
      className="engine-filter-bar"
      onFinish={(v: FilterValues) => onSearch(fromForm(specs, v))}
      labelCol={{ flex: '110px' }}
      style={{ marginBottom: 16 }}
    >
      <Row gutter={16}>
        {specs.map((spec, i) => (
          // Folded filters stay mounted (hidden), so their values travel with every search. One filter
          // a row below md (a window under 768 CSS px: text zoomed to 200 % at 1366 wide), so the
          // placeholder beside the 110 px label is not cut off; wider windows keep 2–4 a row.
          <Col key={spec.name} xs={24} sm={24} md={12} lg={8} xxl={6} style={folded && i >= COLLAPSED_COUNT ? { display: 'none' } : undefined}>
            <Form.Item label={spec.label} name={spec.input === 'numberRange' ? undefined : spec.name} style={{ marginBottom: 12 }}>
              {inputOf(spec)}
            </Form.Item>
          </Col>
        ))}
        <Col flex="auto" style={{ textAlign: 'right' }}>
          <Space>
            <Button type="primary" htmlType="submit">
              查询
            </Button>
            <Button onClick={reset}>重置</Button>
            {foldable ? (
              <Button type="link" onClick={toggle} icon={expanded ? <UpOutlined /> : <DownOutlined />} iconPosition="end" aria-expanded={expanded}>
                {expanded ? '收起' : `展开（另有 ${specs.length - COLLAPSED_COUNT} 项）`}
              </Button>
            ) : null}
          </Space>
        </Col>
      </Row>
    </Form>
  );
}
