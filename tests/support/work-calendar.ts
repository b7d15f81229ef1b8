/** The product's work calendar (schemas/dicts/work-calendar.json), as the server reads it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dict } from '../../src/schema/types';
import { DEFAULT_SCHEMA_DIR } from '../../src/server/resources/catalog';
import { WORK_CALENDAR, workCalendarOf, type WorkCalendar } from '../../src/server/domain/online-inspection/workdays';

export function productWorkCalendar(): WorkCalendar {
  const dict = JSON.parse(readFileSync(join(DEFAULT_SCHEMA_DIR, 'dicts', `${WORK_CALENDAR}.json`), 'utf8')) as Dict;
  return workCalendarOf(new Map([[WORK_CALENDAR, dict.items]]));
}
