/**
 * File a construction notice → the authority agrees → print the notice (打印文书): nbadmin
 * files a notice on the construction register screen, jgadmin accepts it on the audit screen,
 * nbadmin opens 打印告知书 and sees the A4 page with the QR code; the QR code (decoded from its
 * canvas) opened in a fresh browser without login shows the verification page. The browser's print
 * (Chromium's print to PDF) and 下载PDF both give one A4 page.
 */
import { mkdirSync } from 'node:fs';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { makeUscc } from '../../src/server/db/uscc';
import { addToDate, todayIn } from '../../src/shared/dates';
import { openPage } from './support/browser';
import { formControls, pdfFile } from './support/form';
import { account, logIn, logOut, submitDialog } from './support/shell';
import { browserSuite } from './support/suite';

const baseURL = inject('baseURL');
const stamp = Date.now().toString(36).slice(-5).toUpperCase();
const equipmentName = `打印测试乘客电梯${stamp}`;
const PDF = pdfFile('施工方案.pdf');
const SHOTS = 'test-results/screens';

/** Pages of a PDF (its page objects). */
const pdfPages = (pdf: Buffer): number => (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;
/** The MediaBox of a PDF's first page, in points. */
const mediaBox = (pdf: Buffer): number[] => (/\/MediaBox\s*\[\s*([\d.\s-]+)\]/.exec(pdf.toString('latin1'))?.[1] ?? '').trim().split(/\s+/).map(Number);

/** The text the QR code's canvas encodes. */
async function decodeQr(page: Page): Promise<string> {
  const pixels = await page.locator('[data-testid="document-qr"] canvas').evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d')!;
    const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return { data: Array.from(data), width, height };
  });
  const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
  if (!code) throw new Error('the QR code could not be read');
  return code.data;
}

describe('file a construction notice → the authority agrees → print the notice', () => {
  /** The China dates just before and just after 受理 (the same day unless midnight passed between). */
  const acceptedOn: string[] = [];
  const { page } = browserSuite();
  let noticeNo = '';

  const { visible, chooseOption, formItem: item } = formControls(page);
  const date = async (label: string, value: string) => {
    await visible(label).click();
    await visible(label).fill(value);
    await visible(label).press('Enter');
  };
  const row = () => page.locator('.ant-table-row', { hasText: equipmentName }).filter({ visible: true });

  it('nbadmin files a notice on the construction register screen', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/construction/register-list`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await date('计划开工日期', addToDate(todayIn(), 15, 'd'));
    await date('计划竣工日期', addToDate(todayIn(), 45, 'd'));
    await visible('施工地点').fill('宁波市鄞州区天童南路588号3号楼');
    if (!(await visible('联系人').inputValue())) await visible('联系人').fill('王建国');
    if (!(await visible('联系手机').inputValue())) await visible('联系手机').fill('13805740001');
    await visible('施工单位名称').fill('宁波迅达电梯安装工程有限公司');
    await visible('施工单位统一社会信用代码').fill(makeUscc('91', '330203', 'MA2AH3K1'));
    await visible('施工许可证编号').fill('TS3133101-2029');
    await visible('许可级别').fill('A级');
    await date('许可证有效期至', addToDate(todayIn(), 2, 'y'));
    await chooseOption('设备种类', '电梯');
    await visible('设备名称').fill(equipmentName);
    await visible('产品编号').fill(`P${stamp}`);
    await visible('制造单位').fill('通力电梯有限公司');
    for (const label of ['施工方案', '许可证复印件']) {
      await item(label).locator('input[type=file]').setInputFiles(PDF);
      await item(label).locator('a[href*="/attachments/download/"]').first().waitFor();
    }
    await page
      .getByRole('button', { name: /提\s*交/ })
      .filter({ visible: true })
      .click();
    const confirm = page.locator('.ant-modal-confirm, .ant-popover').filter({ visible: true });
    if (await confirm.count()) await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await page
      .getByText(/提交成功|操作成功/)
      .first()
      .waitFor();
    await page.goto(`${baseURL}/construction/register-list`);
    await expect.poll(async () => (await row().count()) && row().innerText(), { timeout: 15_000 }).toContain('已提交');
    noticeNo = (await row().innerText()).match(/SG\d{10}/)?.[0] ?? '';
    expect(noticeNo).not.toBe('');
    // Not yet accepted: its detail offers no 打印告知书.
    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/construction\/detail\?/);
    await page.getByText(noticeNo).filter({ visible: true }).first().waitFor();
    await expect(page.getByRole('button', { name: '打印告知书' }).filter({ visible: true }).count()).resolves.toBe(0);
    await logOut(page);
  });

  it('jgadmin agrees on the audit screen', async () => {
    await logIn(page, baseURL, account('jgadmin'));
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${baseURL}/account/construction-audit`);
    await expect.poll(async () => row().count(), { timeout: 15_000 }).toBe(1);
    acceptedOn.push(todayIn());
    await row()
      .getByRole('button', { name: /受\s*理/ })
      .click();
    await submitDialog(page.locator('.ant-modal').filter({ visible: true }), '告知材料齐全，予以受理');
    await page
      .getByText(/受理成功|操作成功/)
      .first()
      .waitFor();
    acceptedOn.push(todayIn());
    await logOut(page);
  });

  it('nbadmin prints the notice: the A4 page with the QR code, the same page in print and PDF', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/construction/register-list`);
    await expect.poll(async () => (await row().count()) && row().innerText(), { timeout: 15_000 }).toContain('已受理');
    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/construction\/detail\?/);
    // Accepted: the notice's own document is the printout, so the page's plain 打印 is not offered beside it.
    await page.getByRole('button', { name: '打印告知书' }).filter({ visible: true }).waitFor();
    expect(
      await page
        .getByRole('button', { name: /^打\s*印$/ })
        .filter({ visible: true })
        .count(),
    ).toBe(0);
    await page.getByRole('button', { name: '打印告知书' }).filter({ visible: true }).click();
    await page.waitForURL(/\/construction\/print/);
    const paper = page.getByTestId('document-paper');
    await paper.waitFor();
    await expect(paper.innerText()).resolves.toContain('特种设备安装改造修理告知书');
    await expect(paper.innerText()).resolves.toContain(noticeNo);
    await expect(paper.innerText()).resolves.toContain(equipmentName);
    // The authority's box carries the date it accepted the notice (stamped by 受理), the others a line to write on.
    const paperDates = acceptedOn.map((date) => date.split('-').map(Number)).map(([y, m, d]) => `${y}年${m}月${d}日`);
    expect(paperDates).toContain((await page.locator('.engine-document__signature').last().innerText()).split('\n').at(-1));
    // The paper is A4: 210 × 297 mm at 96 dpi.
    const box = (await paper.boundingBox())!;
    expect(Math.round(box.width)).toBe(794);
    expect(Math.round(box.height)).toBe(1123);
    await page.locator('[data-testid="document-qr"] canvas').waitFor();
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/construction-print.png`, fullPage: true });

    const url = await decodeQr(page);
    expect(url).toMatch(new RegExp(`^${baseURL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/verify/[0-9a-f]{32}$`));
    expect(await page.getByTestId('document-qr').getAttribute('data-url')).toBe(url);

    // 打印: Chromium's print of the page is one A4 sheet holding the paper alone.
    await page.emulateMedia({ media: 'print' });
    const printed = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    await page.emulateMedia({ media: 'screen' });
    expect(pdfPages(printed)).toBe(1);
    expect(mediaBox(printed).slice(2).map(Math.round)).toEqual([595, 842]);

    // 下载PDF: the same page, one A4 sheet.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /下载\s*PDF/ }).click()]);
    expect(download.suggestedFilename()).toBe(`特种设备安装改造修理告知书-${noticeNo}.pdf`);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfPages(pdf)).toBe(1);
    expect(
      mediaBox(pdf)
        .slice(2)
        .map((n) => Math.round(n)),
    ).toEqual([595, 842]);

    // The QR code's address in a fresh browser, signed in nowhere: the verification page.
    const fresh = await openPage();
    try {
      await fresh.page.goto(url);
      const facts = fresh.page.getByTestId('verify-facts');
      await facts.waitFor();
      await fresh.page.getByText('该文书真实有效').waitFor();
      const text = await facts.innerText();
      for (const expected of ['特种设备安装改造修理告知书', noticeNo, '宁波甬江特种设备使用有限公司', '已受理', todayIn()]) expect(text).toContain(expected);
      expect(text).not.toContain('13805740001');
      expect(fresh.page.url()).toBe(url);
      await fresh.page.screenshot({ path: `${SHOTS}/document-verify.png` });
      // An unknown token: 未找到该文书.
      await fresh.page.goto(`${baseURL}/verify/0123456789abcdef0123456789abcdef`);
      await fresh.page.getByText('未找到该文书').first().waitFor();
    } finally {
      await fresh.browser.close();
    }
  });
});
