/**
 * A generated city for benchmark volumes (`npm run seed -- --units 10000 --equipment 1000000`):
 * `count` using units spread over Ningbo's ten districts (sys_unit rows with valid unified social
 * credit codes of their district, names, and the unit_profile row the 辖区单位 view reads), and the
 * equipment spread over them: each row owned by a unit, located in the unit's district, its
 * category, state and due date as the demo rows have them (demo-rows.ts: ~10 % overdue, 6 % 停用,
 * 3 % 未登记). Units differ in size as real ones do (a log-normal weight: most hold tens of pieces,
 * a few thousands). Everything is drawn from one seeded PRNG: the same seed gives the same units
 * and rows (ids and timestamps aside). Units have stable ids, so a second run adds no unit twice.
 */
import { sql } from 'kysely';
import { stableId } from '../../db/ids';
import { makeUscc } from '../../db/uscc';
import { prng } from '../../db/demo/context';

/** Ningbo's districts (the area dict's children of 330200) and a weight for their share of units. */
export const CITY_DISTRICTS: readonly { code: string; name: string; weight: number }[] = [
  { code: '330203', name: '海曙区', weight: 12 },
  { code: '330205', name: '江北区', weight: 9 },
  { code: '330206', name: '北仑区', weight: 14 },
  { code: '330211', name: '镇海区', weight: 8 },
  { code: '330212', name: '鄞州区', weight: 18 },
  { code: '330213', name: '奉化区', weight: 6 },
  { code: '330225', name: '象山县', weight: 5 },
  { code: '330226', name: '宁海县', weight: 5 },
  { code: '330281', name: '余姚市', weight: 11 },
  { code: '330282', name: '慈溪市', weight: 12 },
];

const BRAND = [
  '甬江',
  '明州',
  '四明',
  '天一',
  '东海',
  '三江',
  '甬港',
  '月湖',
  '东钱',
  '梅山',
  '象山港',
  '姚江',
  '杭州湾',
  '春晓',
  '九龙',
  '大榭',
  '凤凰',
  '金峨',
  '横溪',
  '鄞江',
];
const STYLE = [
  '精工',
  '华泰',
  '永盛',
  '恒达',
  '盛丰',
  '宏远',
  '瑞祥',
  '鑫源',
  '海天',
  '博创',
  '联合',
  '兴业',
  '广源',
  '新港',
  '同创',
  '嘉信',
  '顺达',
  '浩宇',
  '德润',
  '中鼎',
];
const TRADE: readonly [string, string][] = [
  ['机械制造', 'C'],
  ['化工', 'C'],
  ['物流', 'G'],
  ['置业', 'K'],
  ['电梯工程', 'E'],
  ['港务', 'G'],
  ['食品', 'C'],
  ['纺织', 'C'],
  ['热电', 'D'],
  ['汽车部件', 'C'],
  ['商贸', 'F'],
  ['物业管理', 'K'],
  ['酒店管理', 'H'],
  ['医疗器械', 'C'],
  ['建设工程', 'E'],
  ['游乐', 'R'],
];
const STREETS = ['中山路', '人民路', '工业园区', '经济开发区', '滨海大道', '科技园区', '环城北路', '新城大道'];
const SURNAMES = ['王', '李', '张', '陈', '周', '吴', '徐', '孙', '胡', '朱', '林', '郑'];
const GIVEN = ['建国', '海峰', '晓燕', '伟', '敏', '磊', '静', '军', '丽华', '志强', '雪梅', '立新'];

/** The characters a credit code may hold (GB 32100: no I, O, S, V, Z). */
const CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const base31 = (n: number): string => {
  let text = '';
  for (let k = 0; k < 6; k++, n = Math.floor(n / CODE_CHARS.length)) text = CODE_CHARS[n % CODE_CHARS.length] + text;
  return text;
};

export interface CityUnit {
  id: string;
  orgname: string;
  orgcode: string;
  areacode: string;
  districtName: string;
  address: string;
  contact: string;
  industry: string;
  /** The unit's share of the city's equipment (relative). */
  weight: number;
}

/** The `count` generated units of `seed`, in a fixed order (index i is always the same unit for a seed). */
export function cityUnits(count: number, seed = 1): CityUnit[] {
  const random = prng(seed * 7919 + 17);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const totalWeight = CITY_DISTRICTS.reduce((s, d) => s + d.weight, 0);
  const names = BRAND.length * STYLE.length * TRADE.length;
  const units: CityUnit[] = [];
  for (let i = 0; i < count; i++) {
    let x = random() * totalWeight;
    const district = CITY_DISTRICTS.find((d) => (x -= d.weight) < 0) ?? CITY_DISTRICTS[0];
    // Every combination of name parts once before a number tells a unit of the same name apart.
    const n = (i * 2_654_435_761) % names;
    const [trade, industry] = TRADE[n % TRADE.length];
    const round = Math.floor(i / names);
    const orgname = `宁波${district.name.slice(0, 2)}${BRAND[Math.floor(n / TRADE.length) % BRAND.length]}${STYLE[Math.floor(n / (TRADE.length * BRAND.length)) % STYLE.length]}${trade}${round ? `第${round + 1}` : ''}有限公司`;
    // Organisation code body: "MB" (no demo unit's) + the index in the code's own 31 characters, so codes never collide.
    const orgcode = makeUscc('91', district.code, `MB${base31(i)}`);
    // Log-normal size (Box–Muller): median 1, a long tail of large units.
    const gaussian = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    units.push({
      id: stableId(`bulk:unit:${seed}:${i}`),
      orgname,
      orgcode,
      areacode: district.code,
      districtName: district.name,
      address: `浙江省宁波市${district.name}${pick(STREETS)}${1 + Math.floor(random() * 999)}号`,
      contact: `${pick(SURNAMES)}${pick(GIVEN)}`,
      industry,
      weight: Math.exp(1.1 * gaussian),
    });
  }
  return units;
}

/** Writes the units missing from sys_unit (insert-or-ignore by id and code); returns the ids it added. */
export async function insertCityUnits(db: import('../../resources/repository').AnyDb, units: readonly CityUnit[]): Promise<Set<string>> {
  const added = new Set<string>();
  for (let from = 0; from < units.length; from += 1000) {
    const batch = units.slice(from, from + 1000);
    const values = batch.map((u) => sql`(${u.id}, ${u.orgname}, ${u.orgcode}, ${u.areacode}, ${u.address}, ${u.contact}, 'use')`);
    const { rows } = await sql<{ id: string }>`
      INSERT INTO sys_unit (id, orgname, orgcode, areacode, address, contact, unit_type) VALUES ${sql.join(values)}
      ON CONFLICT DO NOTHING RETURNING id`.execute(db);
    for (const r of rows) added.add(r.id.trim());
  }
  return added;
}

/** The profile body (resource unit-profile) of a generated unit. */
export function cityUnitProfile(u: CityUnit, random: () => number): Record<string, unknown> {
  const digits = (n: number) => String(Math.floor(random() * 10 ** n)).padStart(n, '0');
  return {
    orgname: u.orgname,
    creditCode: u.orgcode,
    unitType: 'use',
    industry: u.industry,
    legalPerson: `${SURNAMES[Math.floor(random() * SURNAMES.length)]}${GIVEN[Math.floor(random() * GIVEN.length)]}`,
    area: u.areacode,
    address: u.address,
    contactPerson: u.contact,
    contactMobile: `139${digits(8)}`,
    employees: Math.round(20 + u.weight * 80 * random()),
    changedDate: `20${20 + Math.floor(random() * 6)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`,
  };
}

/**
 * A picker of the unit owning each next row, in proportion to the units' weights (binary search
 * over the cumulative weights).
 */
export function unitPicker(units: readonly CityUnit[], random: () => number): () => CityUnit {
  const cumulative: number[] = [];
  let total = 0;
  for (const u of units) cumulative.push((total += u.weight));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return units[lo];
  };
}

/** A demo equipment body moved into `unit`'s district: its location, address and the area part of its codes. */
export function relocate(body: Record<string, unknown>, unit: CityUnit): Record<string, unknown> {
  const from = String(body.locationArea);
  const to = unit.areacode;
  const swap = (value: unknown) => (typeof value === 'string' && value.includes(from) ? value.replace(from, to) : value);
  return {
    ...body,
    locationArea: to,
    equcode: swap(body.equcode),
    registrationCode: swap(body.registrationCode),
    address: typeof body.address === 'string' ? body.address.replace(/^宁波市\S{2}[区市县]/, `宁波市${unit.districtName}`) : body.address,
  };
}
