/**
 * Demo maintenance units (schemas/resources/maintenance-unit.json): companies in 宁波 licensed to
 * maintain elevators, cranes, forklifts and rides, written by the authority (jgadmin, the only role
 * that may keep them). Licence expiry dates are spread around today so the list shows every
 * colour: valid, expiring within 30 days (orange), expired (red). The demo equipment picks them
 * (`maintenanceUnitFor`). These are units off the platform; the two demo maintenance units with
 * accounts (seed.ts DEMO_UNITS.maintenance, maintenanceSecond: wbadmin, gcwb) have rows too, linked
 * by accountUnitId (the sys_unit rows exist before the feature seeds run).
 *
 * `maintenance-unit-account` (derive of maintenance-unit): the row's accountUnitId is the maintenance
 * unit registered on the platform with the row's credit code, on every save, so a row the authority
 * keeps and the unit's account (registration, admin CLI) are linked whichever came first.
 */
import type { Kysely } from 'kysely';
import { addToDate } from '../../../shared/dates';
import type { DemoContext } from '../../db/demo/context';
import type { Database } from '../../db/schema';
import { DEMO_UNITS } from '../../db/seed';
import { makeUscc } from '../../db/uscc';
import type { Hook } from '../../resources/hooks';
import { saveRecord } from '../../resources/record-save';
import type { Row } from '../../resources/repository';

export const MAINTENANCE_UNIT = 'maintenance-unit';

/** The sys_unit id of the maintenance unit on the platform with this credit code, or null. */
export async function maintenanceAccountUnit(db: Kysely<Database>, creditCode: string): Promise<string | null> {
  if (!creditCode) return null;
  const unit = await db
    .selectFrom('sys_unit')
    .select('id')
    .where('orgcode', '=', creditCode.toUpperCase())
    .where('unit_type', '=', 'maintenance')
    .executeTakeFirst();
  return unit?.id ?? null;
}

export const maintenanceUnitAccount: Hook = async ({ trx, row }) => ({
  accountUnitId: await maintenanceAccountUnit(trx as Kysely<Database>, typeof row.creditCode === 'string' ? row.creditCode : ''),
});

interface DemoMaintenanceUnit {
  unitName: string;
  area: string;
  orgBody: string;
  licencePrefix: string;
  licenceItems: string[];
  /** Days from today to the licence expiry (negative: expired). */
  expiresIn: number;
  address: string;
  contactPerson: string;
  contactPhone: string;
  /** Equipment categories whose demo equipment this unit maintains (elevators: by the name the generator picks). */
  maintains?: string;
  /** The demo unit on the platform this row is the licence of (its credit code is that unit's). */
  account?: 'maintenance' | 'maintenanceSecond';
}

const UNITS: readonly DemoMaintenanceUnit[] = [
  {
    unitName: '宁波市东方电梯维修有限公司',
    area: '330203',
    orgBody: 'MA28DF6X',
    licencePrefix: 'TS3333101',
    licenceItems: ['T-B', 'T-R'],
    expiresIn: 640,
    address: '宁波市海曙区望春工业园区杉杉路188号',
    contactPerson: '徐国强',
    contactPhone: '0574-87321566',
  },
  {
    unitName: '宁波奥的斯电梯服务有限公司',
    area: '330212',
    orgBody: 'MA2AJ0T5',
    licencePrefix: 'TS3333117',
    licenceItems: ['T-A2', 'T-B'],
    expiresIn: 18,
    address: '宁波市鄞州区钱湖北路399号',
    contactPerson: '沈丽华',
    contactPhone: '13906741228',
  },
  {
    unitName: '宁波甬城起重设备安装维修有限公司',
    area: '330206',
    orgBody: 'MA2GW3R1',
    licencePrefix: 'TS3433086',
    licenceItems: ['Q-A', 'Q-R'],
    expiresIn: 410,
    address: '宁波市北仑区小港街道渡口南路66号',
    contactPerson: '林建平',
    contactPhone: '0574-86103377',
    maintains: '4000',
  },
  {
    unitName: '宁波三江电梯工程有限公司',
    area: '330205',
    orgBody: 'MA2CK7P9',
    licencePrefix: 'TS3333092',
    licenceItems: ['T-B'],
    expiresIn: -21,
    address: '宁波市江北区洪塘街道洪兴路512号',
    contactPerson: '胡晓东',
    contactPhone: '13857412906',
  },
  {
    unitName: '宁波镇海恒力叉车维修服务有限公司',
    area: '330211',
    orgBody: 'MA2H1Y4B',
    licencePrefix: 'TS3733015',
    licenceItems: ['N-R'],
    expiresIn: 9,
    address: '宁波市镇海区蛟川街道北海路1008号',
    contactPerson: '王志刚',
    contactPhone: '0574-86661520',
    maintains: '5000',
  },
  {
    unitName: '慈溪市恒安电梯维保有限公司',
    area: '330282',
    orgBody: 'MA2E5N8Q',
    licencePrefix: 'TS3333128',
    licenceItems: ['T-B', 'T-R'],
    expiresIn: 1150,
    address: '慈溪市白沙路街道北三环东路1299号',
    contactPerson: '岑佳敏',
    contactPhone: '13780023316',
  },
  {
    unitName: '宁波四明游乐设备维护有限公司',
    area: '330213',
    orgBody: 'MA2J6U2D',
    licencePrefix: 'TS3633007',
    licenceItems: ['Y-B'],
    expiresIn: -95,
    address: '宁波市奉化区岳林街道大成东路55号',
    contactPerson: '邬海燕',
    contactPhone: '0574-88953012',
    maintains: '6000',
  },
  // The two on the platform (accounts wbadmin and gcwb): valid licences covering elevators.
  {
    unitName: DEMO_UNITS.maintenance.orgname,
    area: DEMO_UNITS.maintenance.areacode,
    orgBody: 'MA2AX9R1',
    licencePrefix: 'TS3333135',
    licenceItems: ['T-A2', 'T-B', 'T-R'],
    expiresIn: 365,
    address: DEMO_UNITS.maintenance.address,
    contactPerson: DEMO_UNITS.maintenance.contact,
    contactPhone: DEMO_UNITS.maintenance.contact_phone,
    account: 'maintenance',
  },
  {
    unitName: DEMO_UNITS.maintenanceSecond.orgname,
    area: DEMO_UNITS.maintenanceSecond.areacode,
    orgBody: 'MA2KQ3W7',
    licencePrefix: 'TS3333142',
    licenceItems: ['T-B', 'T-R'],
    expiresIn: 400,
    address: DEMO_UNITS.maintenanceSecond.address,
    contactPerson: DEMO_UNITS.maintenanceSecond.contact,
    contactPhone: DEMO_UNITS.maintenanceSecond.contact_phone,
    account: 'maintenanceSecond',
  },
];

/** Writes the demo maintenance units as the authority; returns the saved rows. */
export async function seedMaintenanceUnits(demo: DemoContext): Promise<Row[]> {
  const resource = demo.resource(MAINTENANCE_UNIT);
  const rows: Row[] = [];
  for (const unit of UNITS) {
    const expiryDate = addToDate(demo.today, unit.expiresIn, 'd');
    const creditCode = makeUscc('91', unit.area, unit.orgBody);
    if (unit.account && creditCode !== DEMO_UNITS[unit.account].orgcode)
      throw new Error(`demo maintenance unit ${unit.unitName}: credit code differs from its sys_unit`);
    rows.push(
      // accountUnitId: the derive hook links the two on the platform to their sys_unit rows.
      await saveRecord(demo.db, resource, demo.authority, {
        unitName: unit.unitName,
        creditCode,
        licenceNo: `${unit.licencePrefix}-${expiryDate.slice(0, 4)}`,
        licenceItems: unit.licenceItems,
        issuer: '浙江省市场监督管理局',
        // Production licences run four years.
        issueDate: addToDate(expiryDate, -4, 'y'),
        expiryDate,
        area: unit.area,
        address: unit.address,
        contactPerson: unit.contactPerson,
        contactPhone: unit.contactPhone,
      }),
    );
  }
  return rows;
}

/**
 * The maintenance unit a generated piece of equipment is linked to: the unit of the name the
 * generator gave it (elevators), else the unit maintaining its category; undefined: none.
 */
export function maintenanceUnitFor(units: readonly Row[], equipment: Record<string, unknown>): Row | undefined {
  const byName = units.find((u) => u.unitName === equipment.maintenanceUnit);
  if (byName) return byName;
  const unit = UNITS.find((u) => u.maintains === equipment.equclacode);
  return unit && units.find((u) => u.unitName === unit.unitName);
}
