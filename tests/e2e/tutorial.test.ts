/**
 * The last step of the first-screen tutorial (schemas/README.md, "Try it"), in Chromium, with the
 * route and the labels read from the tutorial's own blocks: the conditional requirement and the
 * date bound its resource declares hold in the form, and a complete notice is submitted.
 */
import { describe, expect, inject, it } from 'vitest';
import { signedInSuite } from './support/suite';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Resource } from '../../src/schema/types';
import { tutorialBlocks } from '../support/tutorial';

const baseURL = inject('baseURL');
const blocks = tutorialBlocks();
const resource = blocks.get('schemas/resources/demo-notice.json') as Resource;
const [listRoute] = blocks.get('schemas/menu.json#routes') as { path: string; title: string }[];
const label = (name: string) => resource.fields[name]!.label;
const title = `教程示例通知 ${Date.now()}`;

describe('the tutorial, followed in the browser', () => {
  const { page } = signedInSuite('nbadmin');

  const field = (name: string) => page.getByLabel(label(name)).filter({ visible: true });
  const item = (name: string) =>
    page
      .locator('.ant-formily-item')
      .filter({ has: page.locator('.ant-formily-item-label', { hasText: label(name) }) })
      .filter({ visible: true });
  const save = () => page.getByRole('button', { name: /保\s*存/ }).click();
  const pickDate = async (name: string, date: string) => {
    await field(name).click();
    await field(name).fill(date);
    await field(name).press('Enter');
  };

  it(`1–2. ${listRoute.title} → 新增: 紧急 makes its reason appear and required`, async () => {
    await page.goto(`${baseURL}${listRoute.path}`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(/mode=add/);
    // The form checks before anything is sent (and is ready once it says so).
    await save();
    await item('title').getByText('请填写标题').waitFor();
    await field('title').fill(title);
    await field('content').fill('教程中的第一份通知。');
    expect(await item('urgentReason').count()).toBe(0);
    await field('urgent').click();
    await item('urgentReason').waitFor();
    await save();
    await item('urgentReason').getByText('请填写紧急原因').waitFor();
    await field('urgentReason').fill('设备停电检修');
  });

  it('3. an 有效期至 before 发布日期 is refused with a message naming both; corrected, it saves', async () => {
    const today = todayIn();
    await pickDate('publishDate', today);
    await pickDate('expireDate', addToDate(today, -1, 'd'));
    await save();
    await item('expireDate')
      .getByText(`${label('expireDate')}不能早于${label('publishDate')}`)
      .waitFor();
    await pickDate('expireDate', addToDate(today, 30, 'd'));
    expect(await field('title').inputValue()).toBe(title);
    await save();
    await page
      .getByText(/保存成功|操作成功/)
      .first()
      .waitFor()
      .catch(async (e) => {
        await page.screenshot({ path: '/tmp/tutorial-3.png', fullPage: true });
        throw e;
      });
  });

  it('4. 提交: the notice is 已提交', async () => {
    await page.goto(`${baseURL}${listRoute.path}`);
    const row = page.locator('.ant-table-row', { hasText: title }).filter({ visible: true });
    await row.waitFor();
    await row.getByRole('button', { name: /提\s*交/ }).click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    // The toast says how the commit went: a refusal fails here with the server's message.
    const toast = page.locator('.ant-message-notice').first();
    await toast.waitFor();
    expect(await toast.innerText()).toContain('提交成功');
    await expect.poll(() => row.innerText()).toContain('已提交');
  });
});
