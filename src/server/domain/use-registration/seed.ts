/** Demo use registrations and change applications in every state (one a transfer to the second unit, waiting for its acceptance), on the demo equipment (equipment/seed.ts). */
import { DEMO_CONTACT, demoForm, type DemoContext } from '../../db/demo/context';
import { DEMO_UNITS } from '../../db/seed';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import { demoEquipment } from '../equipment/demo-rows';
import { EQUIPMENT } from '../equipment/seed';

export async function seedUseRegistrations(demo: DemoContext): Promise<Record<string, number>> {
  const { db, unit, authority, today } = demo;
  const equipment = demo.rows.get(EQUIPMENT) ?? [];
  demo.progress('写入使用登记、变更登记…');
  // Use registration: equipment not yet registered (未登记) is what units apply for.
  const registry = demo.resource('use-regist-apply');
  const unregistered = equipment.filter((e) => e.useStatus === '0');
  // Every state first, then more of the common ones while unregistered equipment lasts.
  const registrations = ['approved', 'accepted', 'submitted', 'returned', 'draft', 'cancelled', 'approved', 'submitted', 'draft'] as const;
  let made = 0;
  for (const [i, target] of registrations.entries()) {
    const item = unregistered[i];
    if (!item) break;
    const application = await saveRecord(db, registry, unit, {
      registMode: 'regBySets',
      useUnitName: DEMO_UNITS.using.orgname,
      useUnitCreditCode: DEMO_UNITS.using.orgcode,
      useUnitAddress: DEMO_UNITS.using.address,
      equclacode: item.equclacode,
      locationArea: item.locationArea,
      ...DEMO_CONTACT,
      useStartDate: today,
      reason: `${String(item.equipmentName)}投入使用，申请办理使用登记`,
      applyForm: demoForm('特种设备使用登记表.pdf'),
      items: [
        {
          equipment: item.id,
          equcode: item.equcode,
          equipmentName: item.equipmentName,
          equclacode: item.equclacode,
          subCategory: item.subCategory,
          factoryNo: item.factoryNo,
          address: item.address,
        },
      ],
      isCommit: target !== 'draft' && target !== 'cancelled',
    });
    const id = application.id as string;
    if (target === 'accepted' || target === 'approved') await runAction(db, registry, authority, 'accept', id, { opinion: '材料齐全，予以受理' });
    if (target === 'approved') await runAction(db, registry, authority, 'audit-agree', id, { opinion: '符合使用登记条件，准予登记' });
    if (target === 'returned') await runAction(db, registry, authority, 'audit-disagree', id, { opinion: '使用登记表未加盖单位公章，请补正后重新提交' });
    if (target === 'cancelled') await runAction(db, registry, unit, 'cancel', id, {});
    made++;
  }

  // Registration by unit: new, unregistered pieces filed as a batch; one approved, one accepted.
  const equipmentResource = demo.resource(EQUIPMENT);
  for (const [i, target] of (['approved', 'accepted'] as const).entries()) {
    const generated = demoEquipment(demo.random, { today, index: 90_000 + i });
    const piece = await saveRecord(db, equipmentResource, unit, {
      ...generated,
      useStatus: '0',
      registrationCode: null,
      useCertNo: null,
      putIntoUseDate: null,
      lastInspectionDate: null,
      lastConclusion: null,
      lastLoadTestDate: null,
    });
    const application = await saveRecord(db, registry, unit, {
      registMode: 'regByUnit',
      equclacode: piece.equclacode,
      locationArea: piece.locationArea,
      useStartDate: today,
      reason: '新购设备按单位集中办理使用登记',
      applyForm: demoForm('特种设备使用登记表（按单位）.pdf'),
      items: [
        {
          equipment: piece.id,
          equcode: piece.equcode,
          equipmentName: piece.equipmentName,
          equclacode: piece.equclacode,
          subCategory: piece.subCategory,
          factoryNo: piece.factoryNo,
          address: piece.address,
        },
      ],
      isCommit: true,
    });
    const id = application.id as string;
    await runAction(db, registry, authority, 'accept', id, { opinion: '材料齐全，予以受理' });
    if (target === 'approved') await runAction(db, registry, authority, 'audit-agree', id, { opinion: '符合使用登记条件，准予登记' });
    made++;
  }

  // Change applications: a stop approved, a scrap waiting, a change of address returned.
  const changes = demo.resource('use-change-apply');
  const inUse = equipment.filter((e) => e.useStatus === '1');
  const changePlans = [
    { changeType: 'stop', target: 'approved', reason: '车间停产改造，设备暂停使用' },
    { changeType: 'scrap', target: 'submitted', reason: '设备达到设计使用年限，申请报废' },
    { changeType: 'address', target: 'returned', reason: '设备迁移至新厂区', newLocationArea: '330206', newAddress: '宁波市北仑区明州路88号新厂区' },
  ];
  let changed = 0;
  for (const [i, plan] of changePlans.entries()) {
    const item = inUse[i];
    if (!item) break;
    const { target, ...fields } = plan;
    const application = await saveRecord(db, changes, unit, {
      ...fields,
      useUnitName: DEMO_UNITS.using.orgname,
      effectiveDate: today,
      ...DEMO_CONTACT,
      applyForm: demoForm('特种设备变更登记表.pdf'),
      items: [
        {
          equipment: item.id,
          equcode: item.equcode,
          equipmentName: item.equipmentName,
          equclacode: item.equclacode,
          registrationCode: item.registrationCode,
          useCertNo: item.useCertNo,
        },
      ],
      isCommit: true,
    });
    const id = application.id as string;
    if (target === 'approved') {
      await runAction(db, changes, authority, 'accept', id, {});
      await runAction(db, changes, authority, 'audit-agree', id, { opinion: '同意停用' });
    }
    if (target === 'returned') await runAction(db, changes, authority, 'audit-disagree', id, { opinion: '请补充新使用地点的安全管理人员信息' });
    changed++;
  }
  // One transfer in progress: 宁波甬江 hands a piece in use to 北仑港城, which has yet to accept it.
  const moving = inUse[changePlans.length];
  if (moving) {
    await saveRecord(db, changes, unit, {
      changeType: 'unit',
      useUnitName: DEMO_UNITS.using.orgname,
      newUseUnitName: DEMO_UNITS.second.orgname,
      newUseUnitCreditCode: DEMO_UNITS.second.orgcode,
      newLocationArea: DEMO_UNITS.second.areacode,
      newAddress: '宁波市北仑区明州路88号3号仓库',
      effectiveDate: today,
      reason: '设备随仓储业务整体转让给宁波北仑港城起重设备使用有限公司',
      ...DEMO_CONTACT,
      applyForm: demoForm('特种设备变更登记表.pdf'),
      items: [
        {
          equipment: moving.id,
          equcode: moving.equcode,
          equipmentName: moving.equipmentName,
          equclacode: moving.equclacode,
          registrationCode: moving.registrationCode,
          useCertNo: moving.useCertNo,
        },
      ],
      isCommit: true,
    });
    changed++;
  }
  return { useRegistrations: made, changeApplications: changed };
}
