/**
 * Working-day arithmetic of the inspection bodies' service level (PORTAL_INSPECTION_SLA_DAYS): an
 * application submitted on a day is due N working days later. A working day is a weekday that the
 * work calendar (dictionary work-calendar: the State Council's yearly holiday notice) does not list
 * as a day off, or a Saturday or Sunday it lists as worked in a holiday's place (调休上班). A year the
 * calendar does not list counts every weekday; the server warns when the coming year is missing.
 */
import type { DictItem } from '../../../schema/types';

const DAY_MS = 86_400_000;
export const WORK_CALENDAR = 'work-calendar';

/** The days off and the weekend days worked, as dates (YYYY-MM-DD). */
export interface WorkCalendar {
  off: ReadonlySet<string>;
  work: ReadonlySet<string>;
}

const calendars = new WeakMap<ReadonlyMap<string, readonly DictItem[]>, WorkCalendar>();

/** The work calendar of the dictionaries (empty when the dictionary is missing: weekends only), built once per catalogue. */
export function workCalendarOf(dicts: ReadonlyMap<string, readonly DictItem[]>): WorkCalendar {
  let calendar = calendars.get(dicts);
  if (!calendar) {
    const items = dicts.get(WORK_CALENDAR) ?? [];
    const of = (kind: string) => new Set(items.filter((item) => item.data?.kind === kind).map((item) => item.value));
    calendar = { off: of('off'), work: of('work') };
    calendars.set(dicts, calendar);
  }
  return calendar;
}

/** Whether a calendar date (YYYY-MM-DD) falls on a Saturday or a Sunday. */
export function isWeekend(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
}

/** Whether people work on `date`: a weekday not listed off, or a weekend day listed as worked. */
export function isWorkingDay(date: string, calendar: WorkCalendar): boolean {
  if (calendar.work.has(date)) return true;
  return !calendar.off.has(date) && !isWeekend(date);
}

/** The date `days` working days from `date`, stepping one day at a time in `direction`. */
function stepWorkingDays(date: string, days: number, calendar: WorkCalendar, direction: 1 | -1): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not a date: ${date}`);
  if (!Number.isInteger(days) || days < 0) throw new Error(`not a number of working days: ${days}`);
  let time = Date.parse(`${date}T00:00:00Z`);
  for (let left = days; left > 0;) {
    time += direction * DAY_MS;
    if (isWorkingDay(new Date(time).toISOString().slice(0, 10), calendar)) left--;
  }
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * The date `days` working days after `date` (YYYY-MM-DD): each step forward counts only when it lands
 * on a working day, so Friday + 1 is Monday, a Saturday + 1 is Monday too, and a day before a
 * week-long holiday + 1 is the first day back. `days` 0 is `date` itself.
 */
export const addWorkingDays = (date: string, days: number, calendar: WorkCalendar): string => stepWorkingDays(date, days, calendar, 1);

/** The date `days` working days before `date`: the day an application due `days` working days after it was submitted. */
export const workingDaysBefore = (date: string, days: number, calendar: WorkCalendar): string => stepWorkingDays(date, days, calendar, -1);

/**
 * The years a deadline may soon fall in that the calendar does not list: the current year, and from
 * December on the next one too (the notice comes out in November). `today` is YYYY-MM-DD.
 */
export function missingCalendarYears(calendar: WorkCalendar, today: string): number[] {
  const year = Number(today.slice(0, 4));
  const listed = new Set([...calendar.off, ...calendar.work].map((date) => Number(date.slice(0, 4))));
  const wanted = today.slice(5, 7) === '12' ? [year, year + 1] : [year];
  return wanted.filter((y) => !listed.has(y));
}
