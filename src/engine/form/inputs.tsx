/**
 * The field widgets every form uses (numbers, switches, dates), each with its read-pretty form for view
 * mode; the rarer ones (area, attachments, references) are widgets.tsx, loaded on first use.
 */
import { DatePicker as FormilyDatePicker, PreviewText, Select as FormilySelect, Switch } from '@formily/antd-v5';
import { connect, mapReadPretty } from '@formily/react';
import { InputNumber } from 'antd';
import { cloneElement, useMemo, type ComponentProps, type ReactElement } from 'react';
import { codeLabel, type CodeItem } from '../model/codes';
import { EMPTY_TEXT } from '../render/empty';
import { formatMoney } from '../render/money';

// ---------------------------------------------------------------------------------------------
// numbers: money reads ¥1,234.00; an amount the server has not computed yet reads 待计算

interface NumberTextProps {
  value?: unknown;
  prefix?: unknown;
  /** What an empty value reads as (compile.ts: 待计算 for a readonly, server-computed number). */
  emptyText?: string;
}

const NumberText = ({ value, prefix, emptyText }: NumberTextProps) => {
  const blank = value === undefined || value === null || value === '';
  const text = blank ? (emptyText ?? EMPTY_TEXT) : prefix === '¥' ? formatMoney(value) : String(value);
  return <PreviewText.Input value={text} />;
};

/** InputNumber that reads formatted in view mode. */
export const NumberInput = connect(InputNumber, mapReadPretty(NumberText));

// ---------------------------------------------------------------------------------------------
// bool

export const BoolText = ({ value }: { value?: unknown }) => <PreviewText.Input value={value === true ? '是' : value === false ? '否' : ''} />;

/** Switch that reads 是 / 否 in view mode. */
export const BoolSwitch = connect(Switch, mapReadPretty(BoolText));

// ---------------------------------------------------------------------------------------------
// codes (dict): a select whose options are the top level of a tree reads any code of
// the tree as its label in view mode (a sub-category the server filled in, in a sub-table cell too)

type SelectProps = ComponentProps<typeof FormilySelect>;
type CodeSelectProps = SelectProps & {
  /** The field's whole code list (field-types.ts); without it the options alone name the values. */
  codes?: readonly CodeItem[];
};

const CodeText = ({ codes, ...props }: CodeSelectProps) => {
  if (!codes) return <PreviewText.Select {...props} />;
  const { value } = props as { value?: unknown };
  return <PreviewText.Input value={codeLabel(codes, value)} />;
};

/** Formily's Select (the options it is given), reading labels from the whole code list in view mode. */
export const CodeSelect = connect(({ codes: _codes, ...props }: CodeSelectProps) => <FormilySelect {...props} />, mapReadPretty(CodeText));

// ---------------------------------------------------------------------------------------------
// dates: the days a date bound refuses are greyed out in the calendar and cannot be clicked
// (layout.css), yet a date typed by hand goes through to the form's validation, whose message
// names the bound. (antd's disabledDate would grey them too, but it also drops a typed refused
// date without a word.)

type DatePickerProps = ComponentProps<typeof FormilyDatePicker> & {
  /** Whether a day (YYYY-MM-DD) is refused by the field's bounds (requirements.ts refusedDays). */
  refusedDay?: (day: string) => boolean;
};

interface CellInfo {
  type: string;
  originNode: ReactElement;
}

const isDay = (value: unknown): value is { format(pattern: string): string } => typeof (value as { format?: unknown } | null)?.format === 'function';

/** The calendar's day cell, marked `engine-date-refused` when the bounds refuse the day. */
export const refusedDayCell =
  (refusedDay: (day: string) => boolean) =>
  (current: unknown, info: CellInfo): ReactElement => {
    if (info.type !== 'date' || !isDay(current) || !refusedDay(current.format('YYYY-MM-DD'))) return info.originNode;
    const cell = info.originNode as ReactElement<{ className?: string }>;
    return cloneElement(cell, { className: `${cell.props.className ?? ''} engine-date-refused`.trim() });
  };

function DateInput({ refusedDay, ...props }: DatePickerProps) {
  const cellRender = useMemo(() => (refusedDay ? refusedDayCell(refusedDay) : undefined), [refusedDay]);
  return <FormilyDatePicker {...props} {...(cellRender ? { cellRender } : {})} />;
}

/** Formily's DatePicker, greying out the days the field's bounds refuse. */
export const DatePicker = Object.assign(DateInput, { RangePicker: FormilyDatePicker.RangePicker });
