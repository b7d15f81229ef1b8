/**
 * The field widgets every form uses (numbers, switches), each with its read-pretty form for view
 * mode; the rarer ones (area, attachments, references) are widgets.tsx, loaded on first use.
 */
import { PreviewText, Switch } from '@formily/antd-v5';
import { connect, mapReadPretty } from '@formily/react';
import { InputNumber } from 'antd';
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

