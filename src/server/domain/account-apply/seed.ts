/**
 * Demo applications, so the authority's screens are not empty: two registrations waiting (宁波
 * districts the demo authority oversees), one returned with an opinion (its applicant may correct
 * it from /registerAuditQuery), and a password reset waiting for blsub plus one refused for nbsub.
 */
import { addToDate } from '../../../shared/dates';
import { openValue } from '../../resources/sealed-fields';
import type { DemoContext } from '../../db/demo/context';
import { makeUscc } from '../../db/uscc';
import { passwordHasher } from '../../services/password';
import { runAction } from '../../resources/record-actions';
import type { Actor } from '../../resources/scope';
import { insertRecord } from '../../resources/writer';
import { REGISTER, RESET } from './hooks';

const VISITOR = (areaCode: string): Actor => ({
  userId: '0'.repeat(32),
  userName: '申请人',
  unitId: '',
  areaCode,
  roleType: 'visitor',
  menuIds: [],
  oversees: false,
});

const REGISTRATIONS = [
  {
    orgname: '宁波海曙恒通电梯工程有限公司',
    orgcode: makeUscc('91', '330203', 'MA2DK7Q1'),
    unitType: 'maintenance',
    areacode: '330203',
    address: '浙江省宁波市海曙区古林镇蜃蛟工业区6号',
    legalPerson: '周建国',
    contact: '周晓燕',
    contactMobile: '13805741201',
    loginName: 'htdt_admin',
    // A maintenance unit gives its licence (account-register-apply: required while unitType is maintenance).
    licence: { licencePrefix: 'TS3333156', licenceItems: ['T-B', 'T-R'], expiresInYears: 3 },
  },
  {
    orgname: '宁波北仑港区起重装卸有限公司',
    orgcode: makeUscc('91', '330206', 'MA2EP3R8'),
    unitType: 'use',
    areacode: '330206',
    address: '浙江省宁波市北仑区新碶街道明州路66号',
    legalPerson: '孙立平',
    contact: '孙婷',
    contactMobile: '13905742302',
    loginName: 'blgq_admin',
  },
  {
    orgname: '宁波镇海化工压力容器使用有限公司',
    orgcode: makeUscc('91', '330211', 'MA2FQ9T2'),
    unitType: 'use',
    areacode: '330211',
    address: '浙江省宁波市镇海区蛟川街道俞范东路9号',
    legalPerson: '钱伟',
    contact: '钱丽',
    contactMobile: '13605743403',
    loginName: 'zhhg_admin',
    returned: '营业执照照片不清晰，请重新上传清晰的营业执照',
  },
];

/** A valid 18-digit identity card number for a birth date (check character computed). */
function idCard(area: string, birth: string, seq: string): string {
  const body = `${area}${birth}${seq}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((s, c, i) => s + Number(c) * weights[i], 0);
  return body + '10X98765432'[sum % 11];
}

export async function seedAccountApplications(demo: DemoContext): Promise<Record<string, number>> {
  const { db, authority } = demo;
  const register = demo.resource(REGISTER);
  const reset = demo.resource(RESET);
  const hash = await passwordHasher.hash('Demo@2026');
  let registrations = 0;
  for (const [i, r] of REGISTRATIONS.entries()) {
    const { returned, licence, ...fields } = r;
    const licenceExpiry = licence && addToDate(demo.today, licence.expiresInYears, 'y');
    const licenceFields = licence && {
      licenceNo: `${licence.licencePrefix}-${licenceExpiry!.slice(0, 4)}`,
      licenceItems: licence.licenceItems,
      licenceExpiry,
    };
    const id = await insertRecord(
      db,
      register,
      VISITOR(fields.areacode),
      { ...fields, ...licenceFields, legalIdCard: idCard(fields.areacode, `1978050${i + 1}`, `12${i}`) },
      { trusted: true, owner: { unitId: null, areaCode: fields.areacode } },
    );
    await db.insertInto('sys_register_secret').values({ apply_id: id, password_hash: hash }).execute();
    if (returned) await runAction(db, register, authority, 'disagree', id, { opinion: returned });
    registrations++;
  }
  const accounts = await db
    .selectFrom('sys_user as u')
    .innerJoin('sys_unit as n', 'n.id', 'u.unit_id')
    .select(['u.id', 'u.login_name', 'u.name', 'u.mobile', 'n.orgname', 'n.orgcode', 'n.areacode'])
    .where('u.login_name', 'in', ['blsub', 'nbsub'])
    .execute();
  let resets = 0;
  for (const a of accounts as { id: string; login_name: string; name: string; mobile: string | null; orgname: string; orgcode: string; areacode: string }[]) {
    const id = await insertRecord(
      db,
      reset,
      VISITOR(a.areacode),
      {
        loginName: a.login_name,
        orgcode: a.orgcode,
        orgname: a.orgname,
        userName: a.name,
        mobile: openValue(reset.model.cipher, a.mobile),
        accountId: a.id,
        applicant: a.name,
        reason: '忘记密码，账号已锁定',
      },
      { trusted: true, owner: { unitId: null, areaCode: a.areacode } },
    );
    if (a.login_name === 'nbsub') await runAction(db, reset, authority, 'disagree', id, { opinion: '身份证明材料与账号姓名不符，请重新申请' });
    resets++;
  }
  return { registrations, resets };
}
