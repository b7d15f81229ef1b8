/**
 * A list with more than four filters folds them: the first row shows with 查询 / 重置 and 展开; the
 * fold's state is remembered per screen, the folded filters stay in the search, and a list restored
 * with a folded filter set opens the fold.
 */
import { describe, expect, inject, it } from 'vitest';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');

describe('a list with many filters (设备综合查询)', () => {
  const { page } = signedInSuite('nbadmin');

  const filterBar = () => page.locator('.engine-filter-bar').filter({ visible: true });
  const filterLabel = (label: string) => filterBar().locator('.ant-form-item-label', { hasText: label });

  it('shows the first row and folds the others behind 展开, remembering the choice per screen', async () => {
    await page.goto(`${baseURL}/equipment/query-comprehensive`);
    const unfold = filterBar().getByRole('button', { name: /展开（另有 12 项）/ });
    await unfold.waitFor();
    await expect(filterLabel('注册代码').isVisible()).resolves.toBe(true);
    await expect(filterLabel('制造单位').isVisible()).resolves.toBe(false);
    await unfold.click();
    await filterLabel('制造单位').waitFor();
    await page.reload();
    await filterLabel('制造单位').waitFor();
    await filterBar().getByRole('button', { name: '收起' }).click();
    await filterLabel('制造单位').waitFor({ state: 'hidden' });
    await page.reload();
    await filterBar().getByRole('button', { name: /展开/ }).waitFor();
    await expect(filterLabel('制造单位').isVisible()).resolves.toBe(false);
  });

  it('searches the table data by keyword by default (the original portal’s isSearchTableData), keeping it in the address', async () => {
    await page.goto(`${baseURL}/equipment/query-comprehensive`);
    const box = page.locator('.engine-list-keyword input').filter({ visible: true });
    await box.waitFor();
    await expect(box.getAttribute('placeholder')).resolves.toBe('按设备名称、设备代码等搜索');
    const total = () => page.locator('.ant-pagination-total-text').filter({ visible: true }).first().innerText();
    await expect.poll(total).toMatch(/^共 [1-9]\d* 条$/);
    await box.fill('没有这样的设备XYZ');
    await box.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('没有这样的设备XYZ');
    await page.locator('.engine-list-table').filter({ visible: true }).locator('.ant-empty-description', { hasText: '暂无数据' }).waitFor();
    await page.reload();
    await expect.poll(() => page.locator('.engine-list-keyword input').filter({ visible: true }).inputValue()).toBe('没有这样的设备XYZ');
    await filterBar()
      .getByRole('button', { name: /^重\s*置$/ })
      .click();
    await expect.poll(() => new URL(page.url()).searchParams.has('q')).toBe(false);
    await expect.poll(total).toMatch(/^共 [1-9]\d* 条$/);
  });

  it('opens the fold when the address carries a folded filter, and searches by it', async () => {
    await page.goto(`${baseURL}/equipment/query-comprehensive?manufacturer=${encodeURIComponent('卫华集团')}`);
    await filterLabel('制造单位').waitFor();
    await expect(filterBar().getByRole('button', { name: '收起' }).isVisible()).resolves.toBe(true);
    await expect(filterBar().getByPlaceholder('请输入制造单位').inputValue()).resolves.toBe('卫华集团');
  });
});

describe('a filter by a reference (安全管理人员 by 所在部门)', () => {
  const { page } = signedInSuite('nbadmin');

  it('asks the server for the choices only once the picker opens, then offers them', async () => {
    const deptLists: string[] = [];
    // The choices' request; the table's 所在部门 cells fetch their labels by id through the same route.
    const hear = (req: { url(): string; postData(): string | null }) => {
      if (/\/r\/safety-dept\/list/.test(req.url()) && !/"id"/.test(req.postData() ?? '')) deptLists.push(req.postData() ?? '');
    };
    page.on('request', hear);
    try {
      await page.goto(`${baseURL}/company-info/azRYgl`);
      const total = () => page.locator('.ant-pagination-total-text').filter({ visible: true }).first().innerText();
      await expect.poll(total).toMatch(/^共 [1-9]\d* 条$/);
      await page.waitForLoadState('networkidle');
      expect(deptLists).toEqual([]);
      const bar = page.locator('.engine-filter-bar').filter({ visible: true });
      await bar.locator('.ant-form-item', { hasText: '所在部门' }).locator('.ant-select-selector').click();
      const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
      await option.waitFor();
      expect(deptLists.length).toBeGreaterThan(0);
      await expect(option.innerText()).resolves.not.toBe('');
    } finally {
      page.off('request', hear);
    }
  });
});
