/**
 * Dates that matter (a field's `deadline`): whether a value has passed or falls due soon, for the
 * record it belongs to. Pure, so lists, details and any count of overdue rows agree.
 */
import { PORTAL_TIME_ZONE, todayIn } from '../shared/dates';
import { holds } from './expr';
import type { Field } from './types';

/** Days before the date from which it counts as due soon, when the field does not say. */
export const DEFAULT_SOON_DAYS = 30;

export interface DeadlineState {
  state: 'overdue' | 'soon';
  /** Days past the date (overdue) or left until it (soon; 0 = today). */
  days: number;
  /** How a person reads it: 已超期 3 天, 今天到期, 12 天后到期. */
  text: string;
}

const DAY = 86_400_000;
const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY;

/** The calendar date of a date or timestamp value in the portal's time zone, or undefined. */
function calendarDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : todayIn(PORTAL_TIME_ZONE, time);
}

/** Whether `value` of a `deadline` field is overdue or due soon on `today`; undefined otherwise (or when `while` does not hold). */
export function deadlineState(
  field: Pick<Field, 'deadline'>,
  value: unknown,
  record: Readonly<Record<string, unknown>> = {},
  today = todayIn(),
): DeadlineState | undefined {
  const { deadline } = field;
  if (!deadline) return undefined;
  const options = deadline === true ? {} : deadline;
  const date = calendarDate(value);
  if (!date) return undefined;
  if (options.while !== undefined && !holds(options.while, record)) return undefined;
  const left = dayNumber(date) - dayNumber(today);
  if (left < 0) return { state: 'overdue', days: -left, text: `已超期 ${-left} 天` };
  if (left <= (options.soon ?? DEFAULT_SOON_DAYS)) return { state: 'soon', days: left, text: left === 0 ? '今天到期' : `${left} 天后到期` };
  return undefined;
}
