/**
 * Demo operators of both using units, each with one or two certificates whose expiry dates fall
 * before today, within 30 and 90 days, and later, so 持证预警 and 人员概况 are never empty.
 */
import { addToDate } from '../../../shared/dates';
import { demoIdCard as idCard, type DemoContext } from '../../db/demo/context';
import { saveRecord } from '../../resources/record-save';
import type { Actor } from '../../resources/scope';

const PEOPLE: [name: string, post: string, items: string[][]][] = [
  ['王建国', '安全管理', [['A']]],
  ['李海峰', '锅炉房', [['G1'], ['G3']]],
  ['陈晓燕', '锅炉房', [['G3']]],
  ['赵磊', '起重作业', [['Q2'], ['Q1']]],
  ['孙丽', '充装站', [['R2', 'P']]],
  ['周强', '厂内运输', [['N1']]],
  ['吴敏', '电梯维修', [['T']]],
  ['郑伟', '起重作业', [['Q2']]],
  ['钱芳', '安全管理', [['A']]],
  ['冯涛', '厂内运输', [['N1', 'N2']]],
];

/** Days from today of the certificates' expiry, in turn: expired, within 30 days, within 90, later. */
const EXPIRY_OFFSETS = [-20, 12, 45, 75, 400, 900, 1200, -3, 28, 600, 800, 1000];

async function seedUnit(demo: DemoContext, unit: Actor, area: string, offset: number): Promise<{ operators: number; certificates: number }> {
  const { db, today } = demo;
  const operators = demo.resource('operator');
  const certificates = demo.resource('operator-certificate');
  let certificateCount = 0;
  for (const [i, [name, post, held]] of PEOPLE.entries()) {
    const birth = `${1970 + ((i * 3 + offset) % 30)}${String(1 + ((i + offset) % 12)).padStart(2, '0')}${String(1 + ((i * 7 + offset) % 28)).padStart(2, '0')}`;
    const person = await saveRecord(db, operators, unit, {
      name,
      idCard: idCard(area, birth, 100 + i + offset),
      mobile: `1390574${String(1000 + i + offset * 20).padStart(4, '0')}`,
      post,
      hireDate: addToDate(today, -(200 + i * 97), 'd'),
    });
    for (const [j, items] of held.entries()) {
      const expiry = addToDate(today, EXPIRY_OFFSETS[(certificateCount + offset) % EXPIRY_OFFSETS.length], 'd');
      await saveRecord(db, certificates, unit, {
        operator: person.id,
        name: person.name,
        idCard: person.idCard,
        certNo: `TS${area.slice(0, 4)}${String(offset * 100 + i * 2 + j + 1).padStart(6, '0')}`,
        items,
        issuer: '宁波市市场监督管理局',
        issueDate: addToDate(expiry, -4, 'y'),
        expiryDate: expiry,
      });
      certificateCount++;
    }
  }
  return { operators: PEOPLE.length, certificates: certificateCount };
}

export async function seedWorkers(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入作业人员与证书…');
  const first = await seedUnit(demo, demo.unit, '330212', 0);
  const second = await seedUnit(demo, demo.secondUnit, '330206', 50);
  return { operators: first.operators + second.operators, certificates: first.certificates + second.certificates };
}
