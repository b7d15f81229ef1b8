/**
 * Generated demo equipment: realistic registry rows across the nine equipment types, with
 * per-type technical parameters and inspection dates spread so that the query screens have
 * something to show (some overdue, some due within 30 days, some unqualified, some out of use).
 * Deterministic for a given seed, so demo screenshots and benchmarks are repeatable.
 */
import { addToDate } from '../../../shared/dates';

type Random = () => number;
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)];
const between = (r: Random, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const round = (value: number, digits: number) => Number(value.toFixed(digits));

interface TypeDef {
  category: string;
  /** Share of the registry (weights). */
  weight: number;
  subs: readonly { code: string; names: readonly string[] }[];
  manufacturers: readonly string[];
  models: readonly string[];
  params: (r: Random, sub: string) => Record<string, unknown>;
}

const TYPES: readonly TypeDef[] = [
  {
    category: '3000',
    weight: 34,
    subs: [
      { code: '3100', names: ['曳引驱动乘客电梯', '曳引驱动载货电梯', '病床电梯'] },
      { code: '3200', names: ['液压乘客电梯'] },
      { code: '3300', names: ['自动扶梯', '自动人行道'] },
    ],
    manufacturers: [
      '日立电梯（中国）有限公司',
      '奥的斯电梯（中国）有限公司',
      '通力电梯有限公司',
      '迅达（中国）电梯有限公司',
      '西子奥的斯电梯有限公司',
      '杭州西奥电梯有限公司',
    ],
    models: ['HGP-1000-CO105', 'GeN2-MR', 'MonoSpace 500', 'Schindler 3300', 'XO-STAR'],
    params: (r, sub) =>
      sub === '3300'
        ? { ratedSpeed: pick(r, [0.5, 0.65]) }
        : {
            ratedLoad: pick(r, [630, 800, 1000, 1050, 1350, 1600, 2000]),
            ratedSpeed: pick(r, [1, 1.5, 1.75, 2, 2.5]),
            floors: between(r, 6, 32),
            stops: between(r, 6, 32),
          },
  },
  {
    category: '2000',
    weight: 22,
    subs: [
      { code: '2100', names: ['储气罐', '分汽缸', '换热器', '反应釜', '缓冲罐'] },
      { code: '2200', names: ['液化气体汽车罐车'] },
    ],
    manufacturers: ['宁波市化工设备有限公司', '浙江鸿盛压力容器有限公司', '杭州制氧机集团股份有限公司', '上海森松压力容器有限公司'],
    models: ['C-1.0/0.8', 'FQ-2.0', 'HX-5.6', 'R-3000'],
    params: (r) => ({
      vesselClass: pick(r, ['I', 'II', 'III']),
      volume: round(0.5 + r() * 30, 2),
      designPressure: round(0.6 + r() * 3, 2),
      medium: pick(r, ['1', '2', '3', '4', '7']),
      safetyGrade: pick(r, ['1', '2', '2', '3']),
    }),
  },
  {
    category: '4000',
    weight: 16,
    subs: [
      { code: '4100', names: ['电动单梁起重机', '通用桥式起重机'] },
      { code: '4200', names: ['通用门式起重机'] },
      { code: '4300', names: ['塔式起重机'] },
      { code: '4800', names: ['施工升降机'] },
      { code: '4D00', names: ['升降横移类机械式停车设备'] },
    ],
    manufacturers: ['卫华集团有限公司', '河南省矿山起重机有限公司', '浙江省建设机械集团有限公司', '宁波凯荣船舶机械有限公司'],
    models: ['LD10-16.5A3', 'QD20/5-22.5', 'QTZ80(TC5610)', 'SC200/200'],
    params: (r, sub) => ({
      ratedLiftingWeight: round(pick(r, [2, 3, 5, 10, 16, 20, 32]), 1),
      span: sub === '4100' || sub === '4200' ? round(10 + r() * 25, 1) : null,
      liftingHeight: round(6 + r() * 40, 1),
      liftsMoltenMetal: sub === '4100' && r() < 0.1,
    }),
  },
  {
    category: '1000',
    weight: 8,
    subs: [
      { code: '1100', names: ['燃气蒸汽锅炉', '燃煤蒸汽锅炉'] },
      { code: '1200', names: ['燃气热水锅炉'] },
      { code: '1300', names: ['导热油炉'] },
    ],
    manufacturers: ['杭州锅炉集团股份有限公司', '浙江特富发展股份有限公司', '无锡华光环保能源集团股份有限公司'],
    models: ['WNS4-1.25-Q', 'SZL10-1.6-AII', 'CWNS1.4-85/60-Q', 'YQW-2800Q'],
    params: (r, sub) => ({
      ratedEvaporation: sub === '1100' ? pick(r, [1, 2, 4, 6, 10]) : null,
      ratedThermalPower: sub !== '1100' ? round(0.7 + r() * 5, 2) : null,
      workingPressure: round(pick(r, [0.7, 1.0, 1.25, 1.6]), 2),
      fuelType: pick(r, ['1', '3', '3', '2', '5']),
    }),
  },
  {
    category: '5000',
    weight: 10,
    subs: [
      { code: '5100', names: ['内燃平衡重式叉车', '蓄电池平衡重式叉车', '前移式叉车'] },
      { code: '5200', names: ['观光车'] },
    ],
    manufacturers: ['杭叉集团股份有限公司', '安徽合力股份有限公司', '林德（中国）叉车有限公司'],
    models: ['CPCD30', 'CPD20', 'CQD16', 'LT-S14'],
    params: (r, sub) => ({
      powerType: pick(r, ['1', '2', '3']),
      ratedLoad: sub === '5200' ? null : pick(r, [1500, 2000, 2500, 3000, 3500]),
      ratedPassengers: sub === '5200' ? between(r, 8, 14) : null,
      plateNo: `浙B${between(r, 10000, 99999)}`,
    }),
  },
  {
    category: '6000',
    weight: 3,
    subs: [
      { code: '6100', names: ['摩天轮'] },
      { code: '6200', names: ['过山车'] },
      { code: '6600', names: ['转马'] },
    ],
    manufacturers: ['中山市金马科技娱乐设备股份有限公司', '华侨城欢乐谷游乐设备有限公司'],
    models: ['MTL-88', 'GSC-600', 'ZM-36'],
    params: (r) => ({ ratedPassengers: between(r, 12, 60), ratedSpeed: round(0.1 + r() * 20, 1), runningHeight: round(3 + r() * 80, 1) }),
  },
  {
    category: '8000',
    weight: 4,
    subs: [
      { code: '8300', names: ['蒸汽管道', '压缩空气管道', '天然气管道'] },
      { code: '8200', names: ['燃气管道'] },
    ],
    manufacturers: ['宁波市化工设备安装有限公司', '浙江省工业设备安装集团有限公司'],
    models: ['GC2-DN100', 'GC2-DN200', 'GB1-DN300'],
    params: (r, sub) => ({
      pipeLength: round(50 + r() * 2000, 1),
      nominalDiameter: pick(r, [50, 80, 100, 150, 200, 300]),
      designPressure: round(0.4 + r() * 2.5, 2),
      medium: pick(r, ['2', '3', '4']),
      pipeGrade: sub === '8200' ? pick(r, ['GB1', 'GB2']) : pick(r, ['GC1', 'GC2', 'GC2', 'GC3']),
      safetyGrade: pick(r, ['1', '2', '3']),
    }),
  },
  {
    category: '9000',
    weight: 1,
    subs: [{ code: '9100', names: ['客运架空索道'] }],
    manufacturers: ['北京起重运输机械设计研究院有限公司'],
    models: ['DJD-8', 'SJD-4'],
    params: (r) => ({ lineLength: round(500 + r() * 2500, 1), capacity: pick(r, [600, 800, 1200, 1500]), ratedSpeed: round(2 + r() * 4, 1) }),
  },
  {
    category: '2000',
    weight: 2,
    subs: [{ code: '2300', names: ['液化石油气钢瓶', '工业氧气瓶'] }],
    manufacturers: ['浙江金盾压力容器有限公司'],
    models: ['YSP35.5', 'WZ-40L'],
    params: (r) => ({ volume: round(pick(r, [0.035, 0.04]), 3), designPressure: round(pick(r, [2.1, 15]), 2), medium: pick(r, ['5', '6']) }),
  },
];

/** Short names of the categories in certificate numbers (as `data.abbr` of the equipment-category dict). */
const CERT_ABBR: Record<string, string> = { '1000': '锅', '2000': '容', '3000': '梯', '4000': '起', '5000': '车', '6000': '游', '8000': '管', '9000': '索' };

const TOTAL_WEIGHT = TYPES.reduce((sum, t) => sum + t.weight, 0);

const DISTRICTS = [
  ['330212', '鄞州区', ['天童南路', '四明中路', '鄞县大道', '首南西路']],
  ['330203', '海曙区', ['中山西路', '望春路', '集士港镇工业区']],
  ['330205', '江北区', ['宁慈东路', '长兴路', '洪塘工业园']],
  ['330206', '北仑区', ['明州路', '新大路', '小港工业区']],
  ['330211', '镇海区', ['骆驼街道', '蛟川街道', '镇海炼化园区']],
  ['330282', '慈溪市', ['北三环东路', '杭州湾新区']],
] as const;

function pickType(r: Random): TypeDef {
  let x = r() * TOTAL_WEIGHT;
  for (const t of TYPES) {
    x -= t.weight;
    if (x < 0) return t;
  }
  return TYPES[0];
}

/** Interval in months of the periodic inspection (kept in step with the dict for spreading dates only). */
const roughInterval = (category: string) =>
  ({ '1000': 12, '2000': 36, '3000': 12, '4000': 24, '5000': 12, '6000': 12, '8000': 36, '9000': 12 })[category] ?? 12;

export interface EquipmentOptions {
  /** Today, `YYYY-MM-DD`: dates are spread around it. */
  today: string;
  /** Row number within the unit, for unique codes. */
  index: number;
  year?: number;
}

/**
 * One equipment body as the save endpoint takes it (derived due dates are left to the server).
 * About 10 % are overdue, 10 % due within 30 days, 6 % concluded 不合格, 6 % 停用, 3 % 未登记.
 */
export function demoEquipment(r: Random, { today, index }: EquipmentOptions): Record<string, unknown> {
  const type = pickType(r);
  const sub = pick(r, type.subs);
  const [area, district, streets] = pick(r, DISTRICTS);
  const category = type.category;
  const roll = r();
  const useStatus = roll < 0.03 ? '0' : roll < 0.09 ? '2' : roll < 0.1 ? '4' : '1';
  const manufactureYear = between(r, 2008, 2025);
  const putIntoUse = addToDate(
    `${manufactureYear}-${String(between(r, 1, 12)).padStart(2, '0')}-${String(between(r, 1, 28)).padStart(2, '0')}`,
    between(r, 30, 300),
    'd',
  );
  // Where the next due date falls relative to today: overdue, within 30 days, or later.
  const interval = roughInterval(category);
  const when = r();
  const dueOffset = when < 0.1 ? -between(r, 1, 120) : when < 0.2 ? between(r, 0, 30) : between(r, 31, interval * 30 - 31);
  const lastInspection = useStatus === '0' ? null : addToDate(addToDate(today, dueOffset, 'd'), -interval, 'm');
  const conclusionRoll = r();
  const lastConclusion = lastInspection === null ? null : conclusionRoll < 0.06 ? '3' : conclusionRoll < 0.16 ? '2' : conclusionRoll < 0.2 ? '4' : '1';
  const loadTested = ['4000', '5000', '6000', '9000'].includes(category) || sub.code === '3300';
  // Six digits of sequence keep the 20-digit registration code; past a million rows the code is left empty.
  const sequence = String((index + 1) % 1_000_000).padStart(6, '0');
  const registered = useStatus !== '0' && index + 1 < 1_000_000;
  return {
    equclacode: category,
    subCategory: sub.code,
    equipmentName: pick(r, sub.names),
    equipmentModel: pick(r, type.models),
    equcode: `${sub.code}${area}${sequence}`,
    registrationCode: registered ? `${category}${area}${String(manufactureYear)}${sequence}` : null,
    factoryNo: `${manufactureYear}${String(between(r, 1, 99999)).padStart(5, '0')}`,
    manufacturer: pick(r, type.manufacturers),
    manufactureDate: `${manufactureYear}-${String(between(r, 1, 12)).padStart(2, '0')}-${String(between(r, 1, 28)).padStart(2, '0')}`,
    installer: category === '3000' ? '宁波市电梯安装工程有限公司' : null,
    internalNo: `NB-${category.slice(0, 1)}-${String(index + 1).padStart(4, '0')}`,
    useStatus,
    // Registered before the current year: numbers of the current year are issued by the approval hook's sequence.
    useCertNo: registered
      ? `${CERT_ABBR[category]}${sub.code.slice(0, 2)}浙B${sequence.slice(1)}(${String(Math.min(Number(putIntoUse.slice(0, 4)), Number(today.slice(0, 4)) - 1)).slice(2)})`
      : null,
    putIntoUseDate: useStatus === '0' ? null : putIntoUse,
    locationArea: area,
    address: `宁波市${district}${pick(r, streets)}${between(r, 1, 999)}号${category === '3000' ? `${between(r, 1, 12)}号楼` : '厂区'}`,
    maintenanceUnit: category === '3000' ? pick(r, ['宁波市东方电梯维修有限公司', '宁波奥的斯电梯服务有限公司']) : null,
    safetyManager: pick(r, ['王建国', '李海峰', '陈晓燕', '张伟', '周敏']),
    safetyManagerPhone: `138${String(between(r, 10000000, 99999999))}`,
    inspectionBody: lastInspection ? pick(r, ['宁波市特种设备检验研究院', '浙江省特种设备科学研究院']) : null,
    lastInspectionDate: lastInspection,
    lastConclusion,
    lastLoadTestDate: loadTested && lastInspection ? addToDate(lastInspection, -between(r, 0, 60), 'd') : null,
    ...type.params(r, sub.code),
  };
}
