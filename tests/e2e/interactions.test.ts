/**
 * 互动交流 in the browser: the unit (nbadmin) writes a message under 自助服务 → 互动交流; the
 * authority (jgadmin) finds it unread under 审批受理 → 留言回复 and replies; the unit sees the
 * reply, as 已回复, in the message's detail and follows up (追问), which waits for a reply again.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSuite } from './support/suite';
import { clickAndExpectWrite, logInAs, logOut, submitDialog } from './support/shell';

const baseURL = inject('baseURL');
const subject = `起重机械年度自检要求（E2E${Date.now().toString(36).slice(-5)}）`;
const reply = '年度自行检查由使用单位组织实施，检查记录存入安全技术档案。';

describe('a message to the authority is answered', () => {
  const { page } = browserSuite();

  const row = () => page.locator('.ant-table-row', { hasText: subject }).filter({ visible: true });

  it('the unit writes a message', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/interaction`);
    await page
      .getByRole('button', { name: /我要留言/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/\/company-service\/interaction-form\?mode=add/);
    await page.getByRole('textbox', { name: '主题', exact: true }).filter({ visible: true }).fill(subject);
    await page.getByRole('combobox', { name: '留言类别', exact: true }).filter({ visible: true }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: '政策咨询' }).first().click();
    await page.getByRole('textbox', { name: '留言内容', exact: true }).filter({ visible: true }).fill('起重机械年度自行检查是否必须委托检验机构？');
    await clickAndExpectWrite(page, page.getByRole('button', { name: /提交留言/ }).filter({ visible: true }), 'interaction', /成功/);
    await page.goto(`${baseURL}/company-service/interaction`);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('待回复');
    await logOut(page);
  });

  it('the authority finds it unread and replies', async () => {
    await logInAs(page, baseURL, 'jgadmin');
    await page.goto(`${baseURL}/account/interaction-reply?unread=true`);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('宁波甬江特种设备使用有限公司');
    await row()
      .getByRole('button', { name: /回\s*复/ })
      .click();
    const dialog = page.locator('.ant-modal').filter({ visible: true });
    await dialog.getByRole('textbox', { name: '回复内容' }).fill(reply);
    await submitDialog(dialog);
    await page.goto(`${baseURL}/account/interaction-reply?status=replied`);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('已回复');
    await logOut(page);
  });

  it('the unit reads the reply and follows up', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/interaction`);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('已回复');
    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/company-service\/interaction-detail\?id=/);
    await page.getByText(reply).filter({ visible: true }).first().waitFor();
    await page
      .getByRole('button', { name: /追\s*问/ })
      .filter({ visible: true })
      .click();
    const dialog = page.locator('.ant-modal').filter({ visible: true });
    await dialog.getByRole('textbox', { name: '追问内容' }).fill('检查记录需要保存几年？');
    await submitDialog(dialog);
    // Done, the detail closes back to the list, where the message waits for a reply again.
    await page.getByText('追问成功').first().waitFor();
    await page.waitForURL(/\/company-service\/interaction(\?|$)/);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('待回复');
  });
});
