/**
 * How values read: dates, money, booleans, codes as labels or coloured tags, attachments. Lists
 * and details share these so a value looks the same everywhere.
 */
import { Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import type { AttachmentValue } from '../data/provider';
import { codeLabel, codePath, findCode, type CodeItem } from '../model/codes';
import { deadlineState } from '../../schema/deadlines';
import { EMPTY_TEXT, emptyTextOf } from './empty';
import { formatMoney } from './money';
import { RefName } from './RefName';
import { RichTextView, richTextPlain } from './RichTextView';
import type { Field, FieldType } from '../../schema/types';

export { EMPTY_TEXT, PENDING_TEXT, emptyTextOf } from './empty';

const isBlank = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

export function formatDate(value: unknown): string {
  if (isBlank(value)) return '';
  const d = dayjs(value as string);
  return d.isValid() ? d.format('YYYY-MM-DD') : String(value);
}

export function formatDateTime(value: unknown): string {
  if (isBlank(value)) return '';
  const d = dayjs(value as string);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : String(value);
}

// money.ts: the form's number inputs read it without the rest of this module.
export { formatMoney } from './money';

/** Plain text of a value of the types that need more than codes' labels or `String` (the widgets of src/schema/kinds.ts's types). */
const TEXT_OF: Partial<Record<FieldType, (value: unknown, codes: readonly CodeItem[]) => string>> = {
  date: formatDate,
  datetime: formatDateTime,
  money: formatMoney,
  bool: (value) => (value === true || value === 'true' ? '是' : '否'),
  area: (value, codes) =>
    codePath(codes, value)
      .map((i) => i.label)
      .join(' / ') || String(value),
  attachment: (value) => (value as AttachmentValue[]).map((a) => a.name).join('、'),
  richText: richTextPlain,
};

/** Plain text of a value by its field type (codes as labels; an area as its path). */
export function formatValue(field: Field, codes: readonly CodeItem[], value: unknown): string {
  if (isBlank(value)) return '';
  const text = TEXT_OF[field.type];
  if (text) return text(value, codes);
  if (codes.length) return (Array.isArray(value) ? value : [value]).map((v) => codeLabel(codes, v)).join('、');
  return String(value);
}

/** Codes as coloured tags (one per value of a multi-valued field). */
export function CodeTags({ codes, value }: { codes: readonly CodeItem[]; value: unknown }): ReactNode {
  if (isBlank(value)) return EMPTY_TEXT;
  const values = Array.isArray(value) ? value : [value];
  return (
    <>
      {values.map((v) => {
        const item = findCode(codes, v);
        return (
          <Tag key={String(v)} color={item?.color && item.color !== 'default' ? item.color : undefined} bordered={false}>
            {item?.label ?? String(v)}
          </Tag>
        );
      })}
    </>
  );
}

/** A file size for people: 812 B, 12.3 KB, 4.5 MB. */
export function formatFileSize(bytes: unknown): string {
  const n = Number(bytes);
  if (bytes === undefined || bytes === null || !Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Attachments as download links. The url is the server's download address under the API base,
 * which the session cookie reaches, so a plain link downloads with the user's session.
 */
export function AttachmentLinks({ value }: { value: unknown }): ReactNode {
  const files = Array.isArray(value) ? (value as AttachmentValue[]) : [];
  if (!files.length) return EMPTY_TEXT;
  return (
    <Space direction="vertical" size={2}>
      {files.map((a, i) => (
        <span key={a.id ?? i}>
          <Typography.Link href={a.url} target="_blank" rel="noreferrer">
            {a.name}
          </Typography.Link>
          {a.size !== undefined ? <Typography.Text type="secondary">{` (${formatFileSize(a.size)})`}</Typography.Text> : null}
        </span>
      ))}
    </Space>
  );
}

/**
 * A rendered date of a `deadline` field, coloured: red once passed, orange when due soon, with the
 * days in a tooltip (and for screen readers); unchanged otherwise.
 */
export function DeadlineMark({
  field,
  value,
  record,
  children,
}: {
  field: Field;
  value: unknown;
  record?: Readonly<Record<string, unknown>>;
  children: ReactNode;
}): ReactNode {
  const due = field.deadline ? deadlineState(field, value, record) : undefined;
  if (!due) return children;
  return (
    <Tooltip title={due.text}>
      <Typography.Text type={due.state === 'overdue' ? 'danger' : 'warning'} strong={due.state === 'overdue'} aria-label={due.text} data-deadline={due.state}>
        {children}
      </Typography.Text>
    </Tooltip>
  );
}

/** Texts as tags, wrapping. */
export function TextTags({ value }: { value: readonly unknown[] }): ReactNode {
  return (
    <Space size={[4, 8]} wrap>
      {value.map((v, i) => (
        <Tag key={i} bordered={false}>
          {String(v)}
        </Tag>
      ))}
    </Space>
  );
}

/** A value as it reads in a detail view (`record`: its row, for a deadline's condition). */
export function DisplayValue({
  field,
  codes,
  value,
  record,
}: {
  field: Field;
  codes: readonly CodeItem[];
  value: unknown;
  record?: Readonly<Record<string, unknown>>;
}): ReactNode {
  if (field.type === 'attachment') return <AttachmentLinks value={value} />;
  if (field.type === 'richText') return <RichTextView value={value} field={field} />;
  if (field.type === 'ref' && field.ref && typeof value === 'string' && value) return <RefName resource={field.ref} id={value} />;
  if (field.deadline && !isBlank(value)) {
    return (
      <DeadlineMark field={field} value={value} record={record}>
        {formatValue(field, codes, value)}
      </DeadlineMark>
    );
  }
  if (codes.length && field.type !== 'area') return <CodeTags codes={codes} value={value} />;
  // A list of texts (a source's reply, e.g. the names of what a role grants) reads as tags.
  if (field.type === 'string' && Array.isArray(value)) return value.length ? <TextTags value={value} /> : emptyTextOf(field);
  const text = formatValue(field, codes, value);
  return text === '' ? emptyTextOf(field) : <span style={{ whiteSpace: field.type === 'text' ? 'pre-wrap' : undefined }}>{text}</span>;
}
