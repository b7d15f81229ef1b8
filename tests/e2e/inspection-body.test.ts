/**
 * The inspection body's desk end to end (nbjy, 宁波市特种设备检验研究院): nbadmin submits an online
 * inspection application, which the server routes to nbjy; nbjy accepts it with a planned date and
 * its inspectors and bills it; nbadmin pays offline and uploads the bank slip; nbjy confirms the
 * payment and records the result (conclusion, dates, PDF report); nbadmin sees 已检验. Then nbjy's
 * home desk: its 报检待确认缴费 tile opens its queue on 待缴费 with 缴费凭证 已上传, every row offering
 * 确认缴费; and 超时未办 lists the late applications with their due date in red.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Envelope } from '../../src/shared/contract';
import { account, logInAs, logOut, submitDialog } from './support/shell';
import { formControls, pdfFile } from './support/form';
import { browserSuite } from './support/suite';
import { loginOverHttp, elevatorBody } from './support/api';

const baseURL = inject('baseURL');
const API = `${baseURL}/espServer`;
const stamp = Date.now().toString().slice(-6);
const equipmentName = `检验机构测试电梯${stamp}`;
const applicant = `宁波甬江特种设备使用有限公司（机构${stamp}）`;

/** Logs a demo account in over HTTP; returns the session id. */
const apiSession = (loginName: string) => loginOverHttp(API, account(loginName));

async function apiPost<T>(sid: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${API}${path}?__sid=${sid}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reply = (await res.json()) as Envelope<T>;
  if (reply.result !== 'true') throw new Error(`${path}: ${reply.message}`);
  return reply.data as T;
}

describe('the inspection body: accept with a date → bill → offline payment confirmed → result → the unit sees 已检验', () => {
  const { page } = browserSuite();
  const { visible, chooseOption, formItem } = formControls(page);
  const row = () => page.locator('.ant-table-row', { hasText: applicant }).filter({ visible: true });
  const dialog = () => page.locator('.ant-modal').filter({ visible: true }).last();
  const date = async (label: string, value: string) => {
    await visible(label).click();
    await visible(label).fill(value);
    await visible(label).press('Enter');
  };

  beforeAll(async () => {
    // nbadmin registers an elevator and submits its application (the form itself: tests/e2e/online-apply.test.ts).
    const sid = await apiSession('nbadmin');
    const equipment = await apiPost<{ id: string }>(sid, '/r/equipment/save', elevatorBody(equipmentName));
    const submitted = await apiPost<{ status: string; inspectionUnitName: string }>(sid, '/r/online-apply/save', {
      applicant,
      contactPerson: '张伟',
      contactMobile: '13805740001',
      expectedDate: addToDate(todayIn(), 10, 'd'),
      items: [{ equipment: equipment.id }],
      isCommit: true,
    });
    expect([submitted.status, submitted.inspectionUnitName]).toEqual(['submitted', '宁波市特种设备检验研究院']);
  });

  it('nbjy finds it in 报检受理, accepts it with a planned date and inspectors, and bills it', async () => {
    await logInAs(page, baseURL, 'nbjy');
    await page.goto(`${baseURL}/inspection/online-apply`);
    await row().waitFor();
    expect(await row().innerText()).toContain('已提交');
    await row()
      .getByRole('button', { name: /受\s*理/ })
      .click();
    await date('计划检验日期', addToDate(todayIn(), 3, 'd'));
    await visible('检验人员').fill('王磊、陈静');
    await submitDialog(dialog(), '资料齐全，予以受理');
    await expect.poll(() => row().innerText()).toContain('已受理');
    expect(await row().innerText()).toContain('王磊、陈静');

    await row().getByRole('button', { name: '核定费用' }).click();
    await submitDialog(page.locator('.ant-modal-confirm'));
    await expect.poll(() => row().innerText()).toContain('待缴费');
    await logOut(page);
  });

  it('nbadmin pays offline and uploads the bank slip', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/online-apply`);
    await row().waitFor();
    await row().getByRole('button', { name: '上传缴费凭证' }).click();
    const upload = formItem('缴费凭证');
    await upload.locator('input[type=file]').setInputFiles(pdfFile('银行转账回单.pdf'));
    await upload.locator('a[href*="/attachments/download/"]').first().waitFor();
    await submitDialog(dialog());
    await expect.poll(() => row().innerText()).toContain('待缴费');
    await logOut(page);
  });

  it('nbjy confirms the payment and records the result with the report', async () => {
    await logInAs(page, baseURL, 'nbjy');
    await page.goto(`${baseURL}/inspection/online-apply`);
    await row().waitFor();
    await row().getByRole('button', { name: '确认缴费' }).click();
    await submitDialog(page.locator('.ant-modal-confirm'));
    await expect.poll(() => row().innerText()).toContain('已缴费');

    await row().getByRole('button', { name: '录入检验结果' }).click();
    await chooseOption('检验结论', '合格');
    const inspected = addToDate(todayIn(), -1, 'd');
    await date('检验日期', inspected);
    await date('下次检验日期', addToDate(inspected, 12, 'm'));
    const report = formItem('检验报告');
    await report.locator('input[type=file]').setInputFiles(pdfFile('定期检验报告.pdf'));
    await report.locator('a[href*="/attachments/download/"]').first().waitFor();
    await submitDialog(dialog(), '检验合格');
    // Done, it leaves the queue (open states by default); 已检验 finds it.
    await expect.poll(() => row().count()).toBe(0);
    await page.goto(`${baseURL}/inspection/online-apply?status=inspected`);
    await expect.poll(() => row().innerText()).toContain('已检验');

    // The detail: the result with the body's own name.
    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/inspection\/online-apply-detail\?/);
    const details = page.locator('.ant-descriptions', { hasText: '检验结果' }).filter({ visible: true });
    await expect.poll(() => details.innerText()).toContain('宁波市特种设备检验研究院');
    expect(await details.innerText()).toContain(addToDate(inspected, 12, 'm'));
    await logOut(page);
  });

  it('nbadmin sees its application 已检验', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/online-apply`);
    await expect.poll(() => row().innerText()).toContain('已检验');
    await logOut(page);
  });

  it("nbjy's desk: 报检待确认缴费 opens its queue on certified 待缴费 rows, each offering 确认缴费; 超时未办 shows the late ones", async () => {
    await logInAs(page, baseURL, 'nbjy');
    await page.goto(`${baseURL}/home`);
    const tile = page.locator('[data-desk-card="报检待确认缴费"]');
    await tile.waitFor();
    const waiting = Number((await tile.locator('.ant-statistic-content-value').innerText()).replace(/,/g, ''));
    expect(waiting).toBeGreaterThan(0);
    await tile.locator('a').click();
    await page.waitForURL(/\/inspection\/online-apply\?/);
    const url = new URL(page.url());
    expect(url.searchParams.getAll('status')).toEqual(['unpaid']);
    expect(url.searchParams.get('payCertificate')).toBe('true');
    const total = page.locator('.ant-pagination-total-text').filter({ visible: true }).first();
    await expect.poll(() => total.innerText(), { timeout: 15_000 }).toBe(`共 ${waiting} 条`);
    for (const certified of await page.locator('.ant-table-row').filter({ visible: true }).all()) {
      expect(await certified.innerText()).toContain('已上传');
      await certified.getByRole('button', { name: '确认缴费' }).waitFor();
    }

    await page.goto(`${baseURL}/inspection/online-apply-overdue`);
    const late = page.locator('.ant-table-row').filter({ visible: true });
    await late.first().waitFor();
    // Past the due date: red (the days overdue in its tooltip).
    for (const one of await late.all()) expect(await one.locator('[data-deadline="overdue"]').count()).toBe(1);
    await logOut(page);
  });
});
