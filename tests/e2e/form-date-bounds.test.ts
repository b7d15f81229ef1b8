/**
 * A date bound in the browser (the tutorial's notice: 有效期至 not before 发布日期): the calendar
 * greys out the days the bound refuses and does not take a click on one, yet a refused date typed
 * by hand still reaches the form's check, whose message names the bound. Fixed dates far ahead, so
 * the result does not depend on the day the test runs.
 */
import { describe, expect, it } from 'vitest';
import type { Resource } from '../../src/schema/types';
import { tutorialBlocks } from '../support/tutorial';
import { signedInSuite } from './support/suite';

const blocks = tutorialBlocks();
const resource = blocks.get('schemas/resources/demo-notice.json') as Resource;
const [listRoute] = blocks.get('schemas/menu.json#routes') as { path: string; title: string }[];
const label = (name: string) => resource.fields[name]!.label;

describe('a date bound: greyed in the calendar, a typed refused date answered by the message', () => {
  const { page, baseURL } = signedInSuite('nbadmin');

  const field = (name: string) => page.getByRole('textbox', { name: label(name), exact: true }).filter({ visible: true });
  const item = (name: string) =>
    page
      .locator('.ant-formily-item')
      .filter({ has: page.locator('.ant-formily-item-label', { hasText: label(name) }) })
      .filter({ visible: true });
  const typeDate = async (name: string, date: string) => {
    await field(name).click();
    await field(name).fill(date);
    await field(name).press('Enter');
    // Enter closes this field's calendar; wait until it has gone, so the next field's calendar is the
    // only one on the page (on a busy machine the closing one lingered beside it).
    await expect.poll(() => calendar().count()).toBe(0);
  };
  // An open calendar: not hidden and not playing its closing animation.
  const calendar = () => page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden):not([class*="-leave"])').filter({ visible: true });
  const day = (date: string) => calendar().locator(`td[title="${date}"]`);
  const style = (date: string) => day(date).evaluate((td) => ({ color: getComputedStyle(td).color, pointerEvents: getComputedStyle(td).pointerEvents }));

  it('greys out the days before 发布日期 in the calendar of 有效期至, and a click on one changes nothing', async () => {
    await page.goto(`${baseURL}${listRoute.path}`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(/mode=add/);
    await field('publishDate').waitFor();
    await typeDate('publishDate', '2030-06-15');
    await typeDate('expireDate', '2030-06-20');
    expect(await field('expireDate').inputValue()).toBe('2030-06-20');

    await field('expireDate').click();
    await day('2030-06-20').waitFor();
    const [refused, bound, allowed] = [await style('2030-06-14'), await style('2030-06-15'), await style('2030-06-16')];
    expect(refused.pointerEvents).toBe('none');
    expect(refused.color).not.toBe(allowed.color);
    expect([bound, allowed].map((s) => s.pointerEvents)).toEqual(['auto', 'auto']);
    // The greyed day does not take the click; an allowed one does.
    await day('2030-06-14').click({ force: true });
    expect(await field('expireDate').inputValue()).toBe('2030-06-20');
    await day('2030-06-16').click();
    await expect.poll(() => field('expireDate').inputValue()).toBe('2030-06-16');
  });

  it('a refused date typed by hand is taken, and the form says which bound it breaks', async () => {
    await typeDate('expireDate', '2030-06-10');
    expect(await field('expireDate').inputValue()).toBe('2030-06-10');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await item('expireDate')
      .getByText(`${label('expireDate')}不能早于${label('publishDate')}`)
      .waitFor();
  });
});
