/**
 * A wizard screen (schemas/screens/equipment-pipeline-form.json, kind wizard): 下一步 checks only
 * the current step, the category is fixed by the screen's initialValues, saving checks everything
 * and the new pipe is in the registry with its category.
 */
import { describe, expect, inject, it } from 'vitest';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');
const name = `E2E蒸汽管道${String(Date.now()).slice(-6)}`;

describe('a wizard: ordered steps, each checked before the next', () => {
  const { page } = signedInSuite('nbadmin');

  const textbox = (label: string) => page.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  const button = (label: RegExp) => page.getByRole('button', { name: label }).filter({ visible: true });
  const activeStep = () => page.locator('.ant-steps-item-active .ant-steps-item-title').filter({ visible: true }).innerText();

  it('walks the steps and saves a pipe of the fixed category', async () => {
    await page.goto(`${baseURL}/equipment/pipeline-info-new`);
    expect(await activeStep()).toBe('基本信息');
    // The screen fixes the category: shown, not editable.
    await page.locator('.ant-formily-item', { hasText: '设备种类' }).filter({ visible: true }).getByText('压力管道').waitFor();

    await button(/下一步/).click();
    await page
      .getByText(/^请(填写|选择)\S+$/)
      .filter({ visible: true })
      .first()
      .waitFor();
    expect(await activeStep()).toBe('基本信息');

    await page.getByRole('combobox', { name: '设备类别', exact: true }).filter({ visible: true }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '工业管道' }).click();
    await textbox('管道名称').fill(name);
    await button(/下一步/).click();
    await expect.poll(activeStep).toBe('使用与检验');

    await textbox('设备使用地点').fill('宁波市镇海区蛟川街道炼化园区');
    await button(/下一步/).click();
    await expect.poll(activeStep).toBe('参数与附件');
    await button(/保\s*存/).click();
    await page
      .getByText(/保存成功|操作成功/)
      .first()
      .waitFor();

    await page.goto(`${baseURL}/equipment/query-comprehensive?equipmentName=${encodeURIComponent(name)}`);
    const row = page.locator('.ant-table-row', { hasText: name }).filter({ visible: true });
    await row.waitFor();
    expect(await row.innerText()).toContain('压力管道');
  });

  it('reloading a form asks first only when it has unsaved input', async () => {
    await page.goto(`${baseURL}/equipment/pipeline-info-new`);
    await page.getByRole('combobox', { name: '设备类别', exact: true }).filter({ visible: true }).waitFor();
    const asked: string[] = [];
    const listener = (dialog: { type(): string }) => void asked.push(dialog.type());
    page.on('dialog', listener);
    await page.reload();
    expect(asked).toEqual([]);

    await textbox('管道名称').fill('未保存的管道');
    await page.reload();
    expect(asked).toEqual(['beforeunload']);
    page.off('dialog', listener);
  });
});
