/**
 * The open simple declaration in Chromium: a visitor files one on the open form /dlgzh
 * (a JSON screen) with the SMS code of its mobile, lands on its details, finds it in /dlgzhList
 * (the access the filing kept, no second code) and opens it again in /dlgzhDetail.
 *
 * The code is read where the outbox SMS provider writes it: the server log of this suite's own
 * server (support/sms.ts).
 */
import { describe, expect, it } from 'vitest';
import { startSmsSuite } from './support/sms';

describe('simple declaration (open form)', () => {
  const { server, page, codeFor } = startSmsSuite();
  const field = (label: string) => page.getByLabel(label, { exact: true });

  it('files a declaration with an SMS code, then finds it in the list and its details', async () => {
    const base = server.baseURL;
    const mobile = '13905748811';
    const title = `电梯异响端到端${Date.now().toString(36).slice(-5)}`;
    // The open form calls no endpoint that needs a session.
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401 || r.status() === 403) refused.push(r.url());
    });
    await page.goto(`${base}/dlgzh`);
    await page.getByText('简易申报', { exact: true }).first().waitFor();
    // No code before the mobile is valid: the form says what is wrong and sends nothing.
    await field('手机号码').fill('1390574');
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText('请输入有效的手机号码').waitFor();
    await field('手机号码').fill(mobile);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByRole('button', { name: /秒后重新获取/ }).waitFor();
    await field('短信验证码').fill(await codeFor(mobile, 'dlgzh'));
    await field('申报人（单位或个人）').fill('李先生');
    await page.getByRole('combobox', { name: '事项类别' }).click();
    await page.locator('.ant-select-item-option', { hasText: '设备故障反映' }).click();
    await field('标题').fill(title);
    await field('地点').fill('宁波市海曙区端到端路8号');
    await field('申报内容').fill('3号楼电梯运行时有异响，请安排检查。');
    await page.getByRole('button', { name: '提交申报' }).click();

    await page.waitForURL(/\/dlgzhDetail\?id=/);
    expect(refused).toEqual([]);
    const details = page.locator('.ant-descriptions');
    await details.getByText(title).waitFor();
    await expect.poll(() => details.innerText()).toContain('设备故障反映');
    expect(await details.innerText()).toContain(mobile);
    expect(await details.innerText()).toMatch(/JY\d{12}/);

    await page.goto(`${base}/dlgzhList`);
    const row = page.locator('.ant-table-row', { hasText: title });
    await row.waitFor();
    expect(await row.innerText()).toContain('已提交');
    await row.click();
    await page.waitForURL(/\/dlgzhDetail\?id=/);
    await page.locator('.ant-descriptions').getByText(title).waitFor();
  });

  it("asks a new tab for the proof, and again with the server's message once the token is refused", async () => {
    const base = server.baseURL;
    const mobile = '13905748822';
    // A tab that filed nothing keeps no token: the list is the proof form.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${base}/dlgzhList`);
    await page.getByText('请输入申报时填写的手机号码，并用短信验证码验证。').waitFor();
    expect(await page.locator('.ant-table').count()).toBe(0);
    await field('手机号码').fill(mobile);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await field('短信验证码').fill(await codeFor(mobile, 'dlgzh'));
    await page.getByRole('button', { name: '查询我的申报' }).click();
    // Proved: the mobile with its change link, and its (empty) list.
    await page.getByText(`手机号码：${mobile}`).waitFor();
    await page.getByText('这个手机号码还没有申报').waitFor();
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('portal.dlgzh.access'))) ?? '{}')).toMatchObject({ mobile });

    // A declaration that is not this mobile's: the server's message in the page, the proof kept.
    await page.goto(`${base}/dlgzhDetail?id=${'0'.repeat(32)}`);
    await page.getByText('记录不存在或无权访问').waitFor();
    expect(await page.getByRole('button', { name: '查询我的申报' }).count()).toBe(0);
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('portal.dlgzh.access'))) ?? '{}')).toMatchObject({ mobile });
    await page.goto(`${base}/dlgzhList`);
    await page.getByText(`手机号码：${mobile}`).waitFor();

    // 换一个号码 forgets the proof: the form again.
    await page.getByText('换一个号码').click();
    await page.getByRole('button', { name: '查询我的申报' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('portal.dlgzh.access'))).toBeNull();

    // A token the server no longer knows: the form comes back with its message, on the list and on a detail.
    const stale = (c: string) => JSON.stringify({ access: c.repeat(43), mobile });
    for (const [route, token] of [
      ['/dlgzhList', stale('x')],
      ['/dlgzhDetail?id=1', stale('y')],
    ]) {
      await page.evaluate((t) => sessionStorage.setItem('portal.dlgzh.access', t), token);
      await page.goto(`${base}${route}`);
      await page.getByRole('alert').filter({ hasText: '验证已过期，请重新获取短信验证码' }).waitFor();
      await page.getByRole('button', { name: '查询我的申报' }).waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem('portal.dlgzh.access'))).toBeNull();
    }
  });
});
