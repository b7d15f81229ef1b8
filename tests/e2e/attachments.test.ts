/**
 * Attachments in a real form: the unit opens the use-registration application, uploads a PDF into
 * an attachment field, sees it listed as a download link that works with the browser's session,
 * and a file whose bytes do not match its extension is refused with the server's Chinese message.
 */
import type { Locator } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

describe('attachment upload in a form', () => {
  const { page } = signedInSuite('nbadmin');

  /** The form item of a field by its label (visible page only: other tabs stay mounted). */
  const item = (label: string): Locator =>
    page
      .locator('.ant-formily-item')
      .filter({ visible: true })
      .filter({ has: page.locator('.ant-formily-item-label', { hasText: label }) })
      .first();

  it('uploads a PDF into 使用登记表 and lists it as a working download link', async () => {
    await page.goto(`${baseURL}/use-record/apply`);
    const field = item('使用登记表');
    await field.waitFor();
    // The field is required to submit (a draft may lack it): submitting without a file says so.
    await page.getByRole('button', { name: /提\s*交/ }).click();
    await field.getByText('请上传使用登记表').waitFor();

    await field.locator('input[type=file]').setInputFiles({ name: '使用登记表.pdf', mimeType: 'application/pdf', buffer: PDF });

    const entry = field.locator('.ant-upload-list-item', { hasText: '使用登记表.pdf' });
    await entry.waitFor();
    const link = entry.locator('a[href*="/attachments/download/"]').first();
    await link.waitFor();
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/espServer\/attachments\/download\/[0-9a-f]{32}$/);
    // The finished file is the field's value now.
    await field.getByText('请上传使用登记表').waitFor({ state: 'detached' });

    // The link needs no token in the URL: the session cookie goes with it.
    const download = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, disposition: res.headers.get('content-disposition'), size: (await res.arrayBuffer()).byteLength };
    }, href!);
    expect(download).toMatchObject({ status: 200, size: PDF.length });
    expect(download.disposition).toContain(`filename*=UTF-8''${encodeURIComponent('使用登记表.pdf')}`);
  });

  it('holds the submit while a file is still uploading, then lets it go once the file landed', async () => {
    const field = item('产品合格证');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/attachments/upload**', async (route) => {
      await held;
      await route.continue();
    });
    const writes: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => {
      if (r.method() !== 'GET' && !r.url().includes('/attachments/')) writes.push(r.url());
    };
    page.on('request', onRequest);
    try {
      await field.locator('input[type=file]').setInputFiles({ name: '合格证.pdf', mimeType: 'application/pdf', buffer: PDF });
      await field.getByText('文件上传中，请稍候').waitFor();
      await page.getByRole('button', { name: /提\s*交/ }).click();
      // Nothing is sent while the file is on its way.
      await page.waitForTimeout(500);
      expect(writes).toEqual([]);
      release();
      await field.locator('.ant-upload-list-item', { hasText: '合格证.pdf' }).locator('a[href*="/attachments/download/"]').waitFor();
      await field.getByText('文件上传中，请稍候').waitFor({ state: 'detached' });
    } finally {
      release();
      page.off('request', onRequest);
      await page.unroute('**/attachments/upload**');
    }
    // Remove it again so the next case starts from an empty field.
    await field.locator('.ant-upload-list-item', { hasText: '合格证.pdf' }).hover();
    await field
      .locator('.ant-upload-list-item', { hasText: '合格证.pdf' })
      .getByRole('button', { name: /删除|delete/i })
      .click();
    await expect.poll(() => field.locator('.ant-upload-list-item').count()).toBe(0);
  });

  it('refuses a file whose bytes are not what its extension claims, with the Chinese message', async () => {
    const field = item('产品合格证');
    await field.locator('input[type=file]').setInputFiles({ name: '合格证.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') });
    await page
      .locator('.ant-message')
      .getByText(/上传失败：附件内容与文件类型不符/)
      .waitFor();
    await expect.poll(() => field.locator('.ant-upload-list-item').count()).toBe(0);
    // The file already uploaded into the other field is still there.
    expect(await item('使用登记表').locator('.ant-upload-list-item', { hasText: '使用登记表.pdf' }).count()).toBe(1);
  });
});
