/**
 * A detail shows the records of other resources that point at it (`related`): the equipment
 * detail lists the piece's inspection records and on-site checks, and nothing of other pieces.
 */
import { describe, expect, inject, it } from 'vitest';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');

describe('related records in a detail (设备详情)', () => {
  const { page } = signedInSuite('nbadmin');

  it('lists the inspection records of this piece only', async () => {
    const { equipment, reports, total } = await page.evaluate(async () => {
      const get = async (path: string) =>
        ((await (await fetch(`/espServer${path}`, { credentials: 'include' })).json()) as { data: { count: number; list: Record<string, string>[] } }).data;
      const first = (await get('/r/inspection-record/list?pageSize=1')).list[0];
      const mine = await get(`/r/inspection-record/list?pageSize=50&equipment=${first.equipment}`);
      return { equipment: first.equipment, reports: mine.list.map((r) => r.reportNo), total: (await get('/r/inspection-record/list?pageSize=1')).count };
    });
    expect(reports.length).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(reports.length);
    await page.goto(`${baseURL}/equipment/detail?id=${equipment}`);
    const section = page.locator('.engine-related', { hasText: '检验记录' }).filter({ visible: true });
    await section.locator('.ant-table-row').first().waitFor();
    await expect(section.locator('.ant-table-row').count()).resolves.toBe(Math.min(reports.length, 5));
    for (const report of reports.slice(0, 5)) await section.getByText(report).waitFor();
    await page.locator('.engine-related', { hasText: '现场检查记录' }).filter({ visible: true }).waitFor();
  });

  it('offers 编辑, which opens the form on this piece', async () => {
    const id = new URL(page.url()).searchParams.get('id');
    await page
      .getByRole('button', { name: /编\s*辑/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL((url) => url.pathname === '/equipment/device-info-new' && url.searchParams.get('id') === id);
    await page.getByText('设备信息录入 · 编辑').filter({ visible: true }).waitFor();
  });
});
