/**
 * The list bench's data: a realistic unit-scoped resource (15 fields: dicts, dates, numbers, text,
 * indexed columns), its dictionaries, the SQL that fills its table with generated rows, and the
 * one filtered, paged query both servers answer.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_UNITS } from '../../src/server/db/seed';

export const RESOURCE = 'bench-equipment';
export const TABLE = 'bench_equipment';
export const UNITS = 50;

const CATEGORY_CODES = ['1000', '2000', '3000', '4000', '5000', '6000', '8000', '9000'];
const STATUS_CODES = ['1', '2', '3', '4', '5'];

type Query = Record<string, string | number | string[]>;

/**
 * The measured queries, all within the session's unit (scope) in the default order:
 * `filtered` is the goal's case (dict values + date range, 50th page of 20; database-bound),
 * `first-page` the lightest list request (20 rows of the unit), where the engine's own overhead shows most.
 */
export const QUERIES: Record<string, Query> = {
  filtered: { category: ['3000', '4000'], useStatus: ['1', '2'], installDate_gte: '2010-01-01', installDate_lte: '2022-12-31', pageNo: 50, pageSize: 20 },
  'first-page': { pageNo: 1, pageSize: 20 },
};

export function queryString(query: Query): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const v of [value].flat()) q.append(key, String(v));
  return q.toString();
}

/** Writes resources/ and dicts/ of the bench resource into `dir` (meta-schemas: the project's). */
export function writeSchemaDir(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  mkdirSync(join(dir, 'dicts'), { recursive: true });
  const dict = (name: string, title: string, codes: string[]) => ({ name, title, items: codes.map((value, i) => ({ value, label: `${title}${i + 1}` })) });
  writeFileSync(join(dir, 'dicts', 'bench-category.json'), JSON.stringify(dict('bench-category', '设备类别', CATEGORY_CODES)));
  writeFileSync(join(dir, 'dicts', 'bench-use-status.json'), JSON.stringify(dict('bench-use-status', '使用状态', STATUS_CODES)));
  const resource = {
    name: RESOURCE,
    table: TABLE,
    title: '基准设备',
    fields: {
      equipNo: { type: 'string', label: '设备编号', required: true, maxLength: 32, unique: true },
      name: { type: 'string', label: '设备名称', required: true, maxLength: 100 },
      category: { type: 'dict', label: '设备类别', dict: 'bench-category', required: true, index: true },
      useStatus: { type: 'dict', label: '使用状态', dict: 'bench-use-status', index: true },
      model: { type: 'string', label: '型号', maxLength: 50 },
      manufacturer: { type: 'string', label: '制造单位', maxLength: 100 },
      madeDate: { type: 'date', label: '制造日期' },
      installDate: { type: 'date', label: '安装日期', index: true },
      nextCheckDate: { type: 'date', label: '下次检验日期', index: true },
      ratedLoad: { type: 'decimal', label: '额定载荷' },
      price: { type: 'money', label: '设备价格' },
      floors: { type: 'int', label: '层站数' },
      address: { type: 'text', label: '使用地点', maxLength: 200 },
      contactMobile: { type: 'string', label: '联系电话', maxLength: 11, rules: ['mobile'] },
      remarks: { type: 'text', label: '备注', maxLength: 500 },
    },
    scope: 'unit',
  };
  writeFileSync(join(dir, 'resources', `${RESOURCE}.json`), JSON.stringify(resource));
}

/** The demo "using" unit owns one row in UNITS; the other owners are synthetic unit ids. */
export const BENCH_UNIT_ID = DEMO_UNITS.using.id;

/** INSERT ... SELECT over generate_series for rows [from, to]: deterministic, spread over UNITS units. */
export function insertRowsSql(from: number, to: number): string {
  // hashint4 spreads codes evenly and independently of the owning unit (g % UNITS).
  const pick = (codes: string[], salt: number) =>
    `(ARRAY[${codes.map((c) => `'${c}'`).join(',')}])[1 + (hashint4(g + ${salt}) & 2147483647) % ${codes.length}]`;
  return `
    INSERT INTO ${TABLE} (id, unit_id, area_code, created_by, created_at, updated_by, updated_at, version,
      equip_no, name, category, use_status, model, manufacturer, made_date, install_date, next_check_date,
      rated_load, price, floors, address, contact_mobile, remarks)
    SELECT md5('row' || g), CASE WHEN g % ${UNITS} = 0 THEN '${BENCH_UNIT_ID}' ELSE md5('unit' || (g % ${UNITS})) END,
      '3302' || lpad(((g % ${UNITS}) % 12 + 1)::text, 2, '0'), NULL,
      timestamptz '2020-01-01' + (g || ' minutes')::interval, NULL, timestamptz '2020-01-01' + (g || ' minutes')::interval, 1,
      'EQ' || lpad(g::text, 10, '0'), '设备' || g, ${pick(CATEGORY_CODES, 0)}, ${pick(STATUS_CODES, 7919)},
      'M-' || (g % 97), '制造单位' || (g % 300),
      date '2000-01-01' + (hashint4(g + 1) & 2147483647) % 8000, date '2005-01-01' + (hashint4(g + 2) & 2147483647) % 7000,
      date '2024-01-01' + (hashint4(g + 3) & 2147483647) % 1500,
      (g % 5000) / 10.0, (g % 100000) * 1.25, g % 40, '宁波市某区某路' || (g % 1000) || '号', '138' || lpad((g % 100000000)::text, 8, '0'),
      CASE WHEN g % 3 = 0 THEN '备注' || g END
    FROM generate_series(${from}, ${to}) AS g`;
}

/** The hand-written baseline's select list: the engine's page shape, written out. */
export const BASELINE_SELECT = `id, equip_no AS "equipNo", name, category, use_status AS "useStatus", model, manufacturer,
  to_char(made_date, 'YYYY-MM-DD') AS "madeDate", to_char(install_date, 'YYYY-MM-DD') AS "installDate",
  to_char(next_check_date, 'YYYY-MM-DD') AS "nextCheckDate", rated_load::float8 AS "ratedLoad", price::float8 AS price, floors,
  address, contact_mobile AS "contactMobile", remarks, unit_id AS "unitId", area_code AS "areaCode", created_by AS "createBy",
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createDate", updated_by AS "updateBy",
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updateDate", version`;
