/**
 * Working-day arithmetic of the inspection bodies' service level (PORTAL_INSPECTION_SLA_DAYS): an
 * application submitted on a day is due N working days later, Saturdays and Sundays skipped. Public
 * holidays are not known to the portal and count as working days.
 */

const DAY_MS = 86_400_000;

/** Whether a calendar date (YYYY-MM-DD) falls on a Saturday or a Sunday. */
export function isWeekend(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
}

/**
 * The date `days` working days after `date` (YYYY-MM-DD): each step forward counts only when it lands
 * on a weekday, so Friday + 1 is Monday and a Saturday + 1 is Monday too. `days` 0 is `date` itself.
 */
export function addWorkingDays(date: string, days: number): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not a date: ${date}`);
  if (!Number.isInteger(days) || days < 0) throw new Error(`not a number of working days: ${days}`);
  let time = Date.parse(`${date}T00:00:00Z`);
  let left = days;
  while (left > 0) {
    time += DAY_MS;
    if (!isWeekend(new Date(time).toISOString().slice(0, 10))) left--;
  }
  return new Date(time).toISOString().slice(0, 10);
}
