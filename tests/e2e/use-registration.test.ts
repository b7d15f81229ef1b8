/**
 * The use-registration journey in the browser, all on JSON screens: the using unit records a new
 * elevator, applies for its use registration (picking it from the registry, attaching the form),
 * the authority accepts and approves, and the equipment then shows its certificate number
 * (梯31浙B…(yy)) and 在用 in the unit's registry.
 */
import { describe, expect, inject, it } from 'vitest';
import { formControls, pdfFile } from './support/form';
import { browserSuite } from './support/suite';
import { account, logIn, logInAs, logOut, submitDialog } from './support/shell';

const baseURL = inject('baseURL');
const stamp = String(Date.now()).slice(-8);
const equipmentName = `E2E乘客电梯${stamp}`;
const equcode = `E2E${stamp}`;
const applicant = `E2E测试使用单位${stamp}`;
const PDF = pdfFile('使用登记表.pdf');

describe('use registration: add an elevator, apply, the authority approves, the certificate number appears', () => {
  const { page } = browserSuite();

  const { visible, combo, chooseOption, formItem } = formControls(page);
  const save = async (name: RegExp) => {
    await page.getByRole('button', { name }).filter({ visible: true }).click();
    const confirm = page.locator('.ant-modal-confirm').filter({ visible: true });
    if (await confirm.count()) await confirm.getByRole('button', { name: /确\s*定/ }).click();
  };

  it('the unit records a new elevator in its registry', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/equipment/device-info-new`);
    await chooseOption('设备种类', '电梯');
    await chooseOption('设备类别', '曳引与强制驱动电梯');
    await visible('设备名称').fill(equipmentName);
    await visible('设备代码').fill(equcode);
    await visible('设备使用地点').fill('宁波市鄞州区天童南路588号1号楼');
    await save(/保\s*存/);
    await page
      .getByText(/保存成功|操作成功/)
      .first()
      .waitFor();
  });

  it('applies for its use registration, picking it from the registry', async () => {
    await page.goto(`${baseURL}/company-service/regBySets`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await visible('使用单位名称').fill(applicant);
    await visible('投入使用日期').click();
    await visible('投入使用日期').fill('2026-11-20');
    await page.keyboard.press('Enter');
    await visible('联系人').fill('张伟');
    await visible('联系电话').fill('13805740001');

    await page.getByRole('button', { name: '添加一行' }).filter({ visible: true }).click();
    await combo('设备').click();
    await page.keyboard.type(equcode);
    const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: equcode });
    await option.waitFor();
    await option.click();
    // Choosing the equipment copies its snapshot into the row.
    await expect.poll(() => visible('设备名称').inputValue()).toBe(equipmentName);

    const item = formItem('使用登记表');
    await item.locator('input[type=file]').setInputFiles(PDF);
    await item.locator('.ant-upload-list-item a', { hasText: '使用登记表.pdf' }).waitFor();

    await save(/提\s*交/);
    await page
      .getByText(/提交成功|操作成功|保存成功/)
      .first()
      .waitFor();
    // The form closes itself after a successful submit: back on the list.
    await page.waitForURL((url) => url.pathname === '/company-service/regBySets' && !url.search.includes('mode='));
    await page.screenshot({ path: '/tmp/e2e-after-submit.png' });
    await logOut(page);
  });

  it('the authority accepts and approves it', async () => {
    await logInAs(page, baseURL, 'jgadmin');
    await page.goto(`${baseURL}/account/use-record-audit`);
    const row = page.locator('.ant-table-row', { hasText: applicant }).filter({ visible: true });
    await row.waitFor();
    await row.getByRole('button', { name: /受\s*理/ }).click();
    // Each dialog by its own text: on a busy machine the confirm may still be fading out when the next opens.
    await submitDialog(
      page
        .locator('.ant-modal')
        .filter({ visible: true })
        .filter({ hasText: /受\s*理/ }),
    );
    await expect.poll(() => row.innerText()).toContain('已受理');

    await row.getByRole('button', { name: /审核通过并发证/ }).click();
    await submitDialog(page.locator('.ant-modal').filter({ visible: true }).filter({ hasText: '审核通过并发证' }), '材料齐全，准予登记');
    // Approved: the list (waiting applications by default) no longer shows it.
    await row.waitFor({ state: 'detached' });
    await page.locator('.ant-modal-wrap').filter({ visible: true }).waitFor({ state: 'detached' });
    await page.screenshot({ path: '/tmp/e2e-after-approve.png' });
    await logOut(page);
  });

  it('the equipment now carries the certificate number and is in use', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/equipment/query-comprehensive?equcode=${equcode}`);
    const row = page.locator('.ant-table-row', { hasText: equipmentName }).filter({ visible: true });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toMatch(/梯31浙B\d{5}\(\d{2}\)/);
    expect(text).toContain('在用');
  });
});
