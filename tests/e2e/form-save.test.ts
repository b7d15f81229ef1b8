/**
 * A form opened without history (a typed or bookmarked address, a reload) stays open after 保存,
 * in edit mode on the saved record, so a second 保存 updates that record instead of adding another
 *; required fields ask with their label; a list with a fixed condition adds records
 * that meet it.
 */
import { describe, expect, inject, it } from 'vitest';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');

describe('saving a form opened by its address', () => {
  const { page } = signedInSuite('nbadmin');
  const title = `地址直开公告${Date.now().toString(36)}`;

  const field = (label: string) => page.getByLabel(label, { exact: true }).filter({ visible: true });
  const save = () =>
    page
      .getByRole('button', { name: /保\s*存/ })
      .filter({ visible: true })
      .click();
  const countTitled = () =>
    page.evaluate(async (t) => {
      const res = await fetch(`/espServer/r/demo-notice/list?title=${encodeURIComponent(t)}&pageSize=10`, { credentials: 'include' });
      return ((await res.json()) as { data: { count: number } }).data.count;
    }, title);

  it('asks for a required field by its label, and puts the cursor in the first one', async () => {
    await page.goto(`${baseURL}/home/unit-notice/form?mode=add`);
    await save();
    await page.getByText('请填写标题').filter({ visible: true }).first().waitFor();
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.getAttribute('aria-label'))).toBe('标题');
  });

  it('stays on the saved record in edit mode, and the second save updates it', async () => {
    await page.goto(`${baseURL}/home/unit-notice/form?mode=add`);
    await field('标题').fill(title);
    await field('正文').fill('第一次保存');
    await save();
    await page.waitForURL(/mode=edit&id=[0-9a-f]{32}/);
    await expect.poll(() => field('标题').inputValue()).toBe(title);
    await field('正文').fill('第二次保存');
    await save();
    await page
      .getByText(/保存成功|操作成功/)
      .first()
      .waitFor();
    await expect.poll(countTitled).toBe(1);
  });

  it('adds from a list of 按单位 registrations a 按单位 one, and lists only those', async () => {
    await page.goto(`${baseURL}/company-service/regByUnit`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/v\.registMode=regByUnit/);
    await page.locator('.ant-formily-item', { hasText: '登记方式' }).filter({ visible: true }).getByText('按单位').waitFor();
    const [byUnit, all] = await page.evaluate(async () => {
      const count = async (query: string) =>
        ((await (await fetch(`/espServer/r/use-regist-apply/list?pageSize=1${query}`, { credentials: 'include' })).json()) as { data: { count: number } }).data
          .count;
      return [await count('&registMode=regByUnit'), await count('')];
    });
    expect(byUnit).toBeLessThan(all);
    await page.goto(`${baseURL}/company-service/regByUnit`);
    await page.getByText(`共 ${byUnit} 条`).filter({ visible: true }).waitFor();
  });

  it('asks before leaving a form whose input is not saved', async () => {
    await page.goto(`${baseURL}/home/unit-notice/form?mode=add`);
    await field('标题').fill('尚未保存的公告');
    const home = () => page.locator('.shell-menu').getByRole('menuitem', { name: '首页' }).click();
    const question = page.locator('.ant-modal-confirm', { hasText: '填写的内容尚未保存' }).filter({ visible: true });
    await home();
    await question.getByRole('button', { name: /留\s*下/ }).click();
    await expect.poll(() => field('标题').inputValue()).toBe('尚未保存的公告');
    expect(new URL(page.url()).pathname).toBe('/home/unit-notice/form');
    await home();
    await question.getByRole('button', { name: /离\s*开/ }).click();
    await page.waitForURL(/\/home$/);
  });
});
