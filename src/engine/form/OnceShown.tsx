/**
 * A form's `source.once`: a value of the save's reply shown once, in a dialog, before the form is
 * left (a new account's initial password, say): the fields `show` names with their values, the
 * value (copyable) and the note; resolves when the user closes it. Nothing when the reply lacks it.
 */
import { Space, Typography } from 'antd';
import type { Feedback } from '../actions/feedback';
import type { FormSource, Resource } from '../../schema/types';

type Once = NonNullable<FormSource['once']>;

/** The value to show: the reply's `field` when it is a non-empty text or number. */
export function onceValue(once: Once, reply: unknown): string | undefined {
  const value = reply && typeof reply === 'object' ? (reply as Record<string, unknown>)[once.field] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) || undefined : undefined;
}

export function showOnce(feedback: Feedback, once: Once, resource: Resource, values: Record<string, unknown>, reply: unknown): Promise<void> {
  const value = onceValue(once, reply);
  if (value === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    feedback.modal.success({
      title: once.title,
      content: (
        <Space direction="vertical" className="engine-once-shown">
          {(once.show ?? []).map((name) => (
            <span key={name}>
              {resource.fields[name]?.label ?? name}：<Typography.Text strong>{String(values[name] ?? '')}</Typography.Text>
            </span>
          ))}
          <span>
            {once.label}：
            <Typography.Text strong copyable data-testid="once-value">
              {value}
            </Typography.Text>
          </span>
          <Typography.Text type="secondary">{once.note}</Typography.Text>
        </Space>
      ),
      okText: once.ok ?? '确定',
      onOk: () => resolve(),
    });
  });
}
