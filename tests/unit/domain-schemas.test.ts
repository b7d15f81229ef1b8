/**
 * The domain dictionaries hold the special-equipment regime's facts: catalogue codes, the 宁波 districts,
 * inspection intervals, certificate items. Conventions (约定) are checked only for their shape.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Dict, DictItem, Resource } from '../../src/schema/types';

const schemas = fileURLToPath(new URL('../../schemas/', import.meta.url));
const dict = (name: string): Dict => JSON.parse(readFileSync(`${schemas}dicts/${name}.json`, 'utf8')) as Dict;
const resource = (name: string): Resource => JSON.parse(readFileSync(`${schemas}resources/${name}.json`, 'utf8')) as Resource;

const pairs = (items: readonly DictItem[]) => items.map((item) => [item.value, item.label]);
const find = (items: readonly DictItem[], value: string): DictItem | undefined => {
  for (const item of items) {
    if (item.value === value) return item;
    const inner = item.children && find(item.children, value);
    if (inner) return inner;
  }
  return undefined;
};
/** `12个月 — ...` → 12: the leading number of an interval or fee label. */
const leading = (items: readonly DictItem[], value: string): number | undefined => {
  const label = find(items, value)?.label;
  const match = label ? /^(\d+)(个月|元) — \S/.exec(label) : null;
  return match ? Number(match[1]) : undefined;
};

describe('equipment-category', () => {
  const { items } = dict('equipment-category');

  it('lists the nine categories of the catalogue with their codes', () => {
    expect(pairs(items)).toEqual([
      ['1000', '锅炉'],
      ['2000', '压力容器'],
      ['3000', '电梯'],
      ['4000', '起重机械'],
      ['5000', '场（厂）内专用机动车辆'],
      ['6000', '大型游乐设施'],
      ['7000', '压力管道元件'],
      ['8000', '压力管道'],
      ['9000', '客运索道'],
    ]);
  });

  it("nests the catalogue's sub-categories under their category", () => {
    const codes = Object.fromEntries(items.map((item) => [item.value, (item.children ?? []).map((child) => child.value)]));
    expect(codes).toEqual({
      '1000': ['1100', '1200', '1300'],
      '2000': ['2100', '2200', '2300', '2400'],
      '3000': ['3100', '3200', '3300', '3400'],
      '4000': ['4100', '4200', '4300', '4400', '4700', '4800', '4900', '4A00', '4D00'],
      '5000': ['5100', '5200'],
      '6000': ['6100', '6200', '6300', '6400', '6500', '6600', '6700'],
      '7000': [],
      '8000': ['8100', '8200', '8300'],
      '9000': ['9100', '9200', '9300'],
    });
    expect(find(items, '3100')?.label).toBe('曳引与强制驱动电梯');
    expect(find(items, '4A00')?.label).toBe('桅杆式起重机');
    expect(find(items, '8100')?.label).toBe('长输管道');
  });

  it('every sub-category code starts with its category digit', () => {
    for (const item of items) for (const child of item.children ?? []) expect(child.value[0]).toBe(item.value[0]);
  });
});

describe('area', () => {
  it('is the cascade 浙江省 → 宁波市 → the ten districts', () => {
    const [province] = dict('area').items;
    expect([province.value, province.label]).toEqual(['330000', '浙江省']);
    const city = province.children?.[0];
    expect([city?.value, city?.label]).toEqual(['330200', '宁波市']);
    expect(pairs(city?.children ?? [])).toEqual([
      ['330203', '海曙区'],
      ['330205', '江北区'],
      ['330206', '北仑区'],
      ['330211', '镇海区'],
      ['330212', '鄞州区'],
      ['330213', '奉化区'],
      ['330225', '象山县'],
      ['330226', '宁海县'],
      ['330281', '余姚市'],
      ['330282', '慈溪市'],
    ]);
  });
});

describe('states and conclusions', () => {
  it('use status covers 在用, 停用, 注销, 报废, each with a tag colour', () => {
    const { items } = dict('use-status');
    expect(items.map((item) => item.label)).toEqual(expect.arrayContaining(['在用', '停用', '注销', '报废']));
    for (const item of items) expect(item.color).toBeTruthy();
  });

  it("inspection conclusions are the regime's four, 不合格 being code 3 (query-fault)", () => {
    expect(pairs(dict('inspection-conclusion').items)).toEqual([
      ['1', '合格'],
      ['2', '基本符合要求'],
      ['3', '不合格'],
      ['4', '复检合格'],
    ]);
  });

  it('registration modes keep the original route names', () => {
    expect(dict('registration-mode').items.map((item) => item.value)).toEqual(['regBySets', 'regByUnit']);
  });
});

describe('inspection-interval', () => {
  const { items } = dict('inspection-interval');

  it.each([
    ['3000', 12, 'elevator every year'],
    ['1000', 12, 'boiler external every year'],
    ['1000-internal', 24, 'boiler internal every 2 years'],
    ['1000-hydro', 72, 'boiler hydrostatic test every 6 years'],
    ['2000', 36, 'pressure vessel first within 3 years'],
    ['2000-g1', 72, 'vessel grade 1 every 6 years'],
    ['2000-g2', 72, 'vessel grade 2 every 6 years'],
    ['4000', 24, 'other cranes every 2 years'],
    ['4300', 12, 'tower cranes every year'],
    ['4400', 12, 'mobile cranes every year'],
    ['4800', 12, 'hoists every year'],
    ['4000-molten', 12, 'cranes lifting molten metal every year'],
    ['5000', 12, 'field vehicles every year'],
    ['6000', 12, 'amusement rides every year'],
    ['9000', 12, 'ropeways every year'],
  ])('%s: %i months (%s)', (code, months) => {
    expect(leading(items, code)).toBe(months);
  });

  it("takes a value inside the regime's range where it gives one, and says it is a convention", () => {
    for (const code of ['2000-g3', '8000', '8000-g1', '8000-g2', '8000-g3']) {
      const months = leading(items, code)!;
      expect(months).toBeGreaterThanOrEqual(36);
      expect(months).toBeLessThanOrEqual(72);
      expect(find(items, code)!.label).toContain('约定');
    }
  });
});

describe('conventions kept in dictionaries', () => {
  it('every load-test interval and fee label starts with its number', () => {
    for (const name of ['load-test-interval', 'inspection-fee']) {
      const visit = (list: readonly DictItem[]) =>
        list.forEach((item) => {
          expect(leading(dict(name).items, item.value), `${name} ${item.value}`).toBeGreaterThan(0);
          visit(item.children ?? []);
        });
      visit(dict(name).items);
    }
  });

  it('every fee and load-test key is a code of the catalogue', () => {
    const catalogue = dict('equipment-category').items;
    for (const name of ['load-test-interval', 'inspection-fee']) {
      const visit = (list: readonly DictItem[]) =>
        list.forEach((item) => {
          expect(find(catalogue, item.value), `${name} ${item.value}`).toBeDefined();
          visit(item.children ?? []);
        });
      visit(dict(name).items);
    }
  });
});

describe('certificate-item', () => {
  it('lists the TSG Z6001 items', () => {
    expect(dict('certificate-item').items.map((item) => item.value)).toEqual([
      'A',
      'G1',
      'G3',
      'R1',
      'R2',
      'P',
      'T',
      'Q1',
      'Q2',
      'N1',
      'N2',
      'Y1',
      'Y2',
      'S1',
      'S2',
    ]);
    expect(find(dict('certificate-item').items, 'Q2')?.label).toContain('起重机司机');
  });
});

describe('equipment and use-registration resources', () => {
  it('keep the original identifiers and rules', () => {
    const { fields } = resource('equipment');
    expect(fields.equclacode).toMatchObject({ type: 'dict', dict: 'equipment-category', required: true });
    expect(fields.equcode?.rules).toEqual(['deviceCode']);
    expect(fields.registrationCode).toMatchObject({ rules: ['registrationCode'], unique: true, maxLength: 20 });
    expect(fields.locationArea).toMatchObject({ type: 'area', dict: 'area' });
  });

  it('use registration: returned needs an opinion, audits are the authority’s, revoke only before acceptance', () => {
    const workflow = resource('use-regist-apply').workflow!;
    expect(workflow.actions['audit-disagree']).toMatchObject({ to: 'returned', opinion: 'required', roles: ['authority'] });
    expect(workflow.actions.accept).toMatchObject({ from: ['submitted'], to: 'accepted', roles: ['authority'] });
    expect(workflow.actions['audit-agree']).toMatchObject({ from: ['accepted'], to: 'approved', roles: ['authority'] });
    expect(workflow.actions.revoke).toMatchObject({ from: ['submitted'], to: 'draft' });
    expect(resource('use-regist-apply').fields.contactMobile?.rules).toEqual(['mobile']);
  });
});
