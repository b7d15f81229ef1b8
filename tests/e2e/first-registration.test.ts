/**
 * The first-registration journey in the browser, on JSON screens: the using unit files a new crane
 * with its manufacturer data and both certificates (首次登记申请), the authority approves it
 * (审批受理 → 首次登记审核), and the crane is then in the unit's registry as 未登记, ready for use
 * registration (设备管理 → 综合查询).
 */
import { describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { formControls, pdfFile } from './support/form';
import { browserSuite } from './support/suite';
import { account, logIn, logInAs, logOut, submitDialog } from './support/shell';

const baseURL = inject('baseURL');
const stamp = String(Date.now()).slice(-8);
const equipmentName = `E2E首登起重机${stamp}`;
const factoryNo = `E2EFR${stamp}`;

describe('first registration', () => {
  const { page } = browserSuite();

  const { visible, chooseOption, formItem } = formControls(page);
  const upload = async (label: string, name: string) => {
    const item = formItem(label);
    await item.locator('input[type=file]').setInputFiles(pdfFile(name));
    await item.locator('.ant-upload-list-item a', { hasText: name }).waitFor();
  };

  it('a first registration puts equipment in the registry', async () => {
    // The unit files the crane.
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/firstRegisterManagement/firstRegisterApply`);
    await chooseOption('设备种类', '起重机械');
    await chooseOption('设备类别', '桥式');
    await visible('设备名称').fill(equipmentName);
    await visible('规格型号').fill('LD10-22.5');
    await visible('设备使用地点').fill('宁波市鄞州区天童南路588号3号车间');
    await visible('制造单位').fill('河南卫华重型机械股份有限公司');
    await visible('制造许可证编号').fill('TS2441007-2029');
    await visible('制造日期').click();
    await visible('制造日期').fill(addToDate(todayIn(), -1, 'm'));
    await page.keyboard.press('Enter');
    await visible('出厂编号').fill(factoryNo);
    await upload('产品合格证', '产品合格证.pdf');
    await upload('监督检验证书', '监督检验证书.pdf');
    await page
      .getByRole('button', { name: /提\s*交/ })
      .filter({ visible: true })
      .click();
    const confirm = page.locator('.ant-modal-confirm').filter({ visible: true });
    if (await confirm.count()) await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await page
      .getByText(/提交成功|操作成功|保存成功/)
      .first()
      .waitFor();

    // The query screen lists it, waiting.
    await page.goto(`${baseURL}/firstRegisterManagement/firstRegisterQuery`);
    const mine = page.locator('.ant-table-row', { hasText: equipmentName }).filter({ visible: true });
    await mine.waitFor();
    expect(await mine.innerText()).toContain('已提交');
    await logOut(page);

    // The authority approves it.
    await logInAs(page, baseURL, 'jgadmin');
    await page.goto(`${baseURL}/account/first-register-audit`);
    const row = page.locator('.ant-table-row', { hasText: equipmentName }).filter({ visible: true });
    await row.waitFor();
    await row.getByRole('button', { name: /审核通过/ }).click();
    await submitDialog(page.locator('.ant-modal').filter({ visible: true }).last(), '材料齐全，准予首次登记');
    // Approved: the list (waiting applications by default) no longer shows it.
    await row.waitFor({ state: 'detached' });
    await logOut(page);

    // The crane is in the unit's registry, 未登记.
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/equipment/query-comprehensive?factoryNo=${factoryNo}`);
    const piece = page.locator('.ant-table-row', { hasText: equipmentName }).filter({ visible: true });
    await piece.waitFor();
    expect(await piece.innerText()).toContain('未登记');
  });
});
