/**
 * A maintenance unit end to end, on this file's own server (support/sms.ts): a visitor registers
 * a 维护保养单位 with its licence on /register → jgadmin approves it → nbadmin names it in a
 * maintenance contract for two of its elevators and submits it → the new maintenance unit logs in,
 * confirms the contract under 维保业务 › 维保合同 and finds the two elevators (and no other) under 维保设备
 * → it files a maintenance record through the form and submits it for confirmation → nbadmin
 * confirms it under 维保档案 with its safety manager's name → the record is 已确认 in nbadmin's
 * 维保档案 and the maintenance unit's 维保记录 alike.
 */
import { describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Envelope } from '../../src/shared/contract';
import { account, logIn, logInAs, logOut, submitDialog } from './support/shell';
import { startSmsSuite } from './support/sms';
import { registerUnit, type Filed } from './support/register';
import { loginOverHttp, elevatorBody } from './support/api';
import { pdfFile } from './support/form';

const password = 'Maint@2026ok';

describe('a maintenance unit: registers → approved → confirms a contract → files a record the using unit confirms', () => {
  const suite = startSmsSuite({ width: 1366, height: 900 });
  const { server, page } = suite;
  const combo = (label: string) => page.getByRole('combobox', { name: label, exact: true }).filter({ visible: true });
  const textbox = (label: string) => page.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  const openOptions = () => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
  /** Picks the option showing `option` (the first one when absent) in the select labelled `label`. */
  const select = async (label: string, option?: string, multiple = false) => {
    // The select, not its input: a chosen value's label lies over the input.
    await page
      .locator('.ant-select')
      .filter({ has: combo(label) })
      .first()
      .click();
    const choice = option ? openOptions().filter({ hasText: option }).first() : openOptions().first();
    await choice.waitFor();
    const text = await choice.innerText();
    await choice.click();
    if (multiple) await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').filter({ visible: true }).count()).toBe(0);
    return text;
  };
  const date = async (label: string, value: string) => {
    await textbox(label).click();
    await textbox(label).fill(value);
    await textbox(label).press('Enter');
  };
  const row = (text: string) => page.locator('.ant-table-row', { hasText: text }).filter({ visible: true });
  const dialog = () => page.locator('.ant-modal').filter({ visible: true }).last();

  let unit: Filed;
  let contractNo = '';
  const elevators: string[] = [];

  async function api<T>(sid: string, path: string, body?: unknown): Promise<T> {
    const url = `${server.baseURL}/espServer${path}${path.includes('?') ? '&' : '?'}__sid=${sid}`;
    const res = await fetch(url, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const reply = (await res.json()) as Envelope<T>;
    if (reply.result !== 'true') throw new Error(`${path}: ${reply.message}`);
    return reply.data as T;
  }

  /** Uploads a PDF as `sid`; the value of an attachment field holding it. */
  async function upload(sid: string, name: string): Promise<{ id: string; name: string }[]> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pdfFile(name).buffer)], { type: 'application/pdf' }), name);
    const res = await fetch(`${server.baseURL}/espServer/a/stone/attachment/upload?__sid=${sid}`, { method: 'POST', body: form });
    const reply = (await res.json()) as Envelope<{ id: string; name: string }>;
    if (reply.result !== 'true') throw new Error(`upload: ${reply.message}`);
    return [{ id: reply.data!.id, name }];
  }

  it('registers as a maintenance unit with its licence; jgadmin approves it', { timeout: 180_000 }, async () => {
    unit = await registerUnit(suite, '13905749911', password, async (field) => {
      await select('单位类型', '维护保养单位');
      await field('许可证编号').fill('TS3333101-2031');
      await date('许可证有效期至', addToDate(todayIn(), 400, 'd'));
      await select('许可项目及级别', '电梯安装（含修理）B级', true);
    });
    await logInAs(page, server.baseURL, 'jgadmin');
    await page.goto(`${server.baseURL}/account/check`);
    await expect.poll(async () => (await row(unit.loginName).count()) && row(unit.loginName).innerText()).toContain('待审核');
    // The application's detail shows the licence the unit gave.
    await row(unit.loginName)
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.getByText('维保许可').first().waitFor();
    await page.getByText('TS3333101-2031').first().waitFor();
    await page.goto(`${server.baseURL}/account/check`);
    await row(unit.loginName).waitFor();
    await row(unit.loginName).getByRole('button', { name: '审核通过' }).click();
    await submitDialog(dialog());
    await expect.poll(() => row(unit.loginName).count()).toBe(0);
    await logOut(page);
  });

  it('nbadmin names it in a contract for two elevators; it confirms and sees those two only', { timeout: 180_000 }, async () => {
    const sid = await loginOverHttp(`${server.baseURL}/espServer`, account('nbadmin'));
    const registry = await api<{ list: { id: string; unitName: string }[] }>(sid, `/r/maintenance-unit/list?unitName=${encodeURIComponent(unit.orgname)}`);
    expect(registry.list.map((r) => r.unitName)).toEqual([unit.orgname]);
    // Two new elevators: the demo's own are under contract already (a piece is under one at a time).
    const stamp = Date.now().toString().slice(-6);
    const pieces = { list: [] as { id: string; equipmentName: string }[] };
    for (const n of [1, 2]) {
      const equipmentName = `维保测试电梯${stamp}-${n}`;
      const saved = await api<{ id: string }>(sid, '/r/equipment/save', elevatorBody(equipmentName, addToDate(todayIn(), -200, 'd')));
      pieces.list.push({ id: saved.id, equipmentName });
    }
    elevators.push(...pieces.list.map((p) => p.equipmentName));
    const contract = await api<{ contractNo: string; status: string }>(sid, '/r/maintenance-contract/save', {
      maintenanceUnitId: registry.list[0].id,
      startDate: addToDate(todayIn(), -1, 'd'),
      endDate: addToDate(todayIn(), 364, 'd'),
      equipments: pieces.list.map((p) => ({ equipment: p.id })),
      contractScan: await upload(sid, '电梯维护保养合同.pdf'),
      isCommit: true,
    });
    expect(contract.status).toBe('submitted');
    contractNo = contract.contractNo;

    await logIn(page, server.baseURL, { loginName: unit.loginName, password, orgCode: unit.orgcode });
    await page.waitForURL(/\/home$/);
    await page.goto(`${server.baseURL}/maintenance/contract`);
    await expect.poll(async () => (await row(contractNo).count()) && row(contractNo).innerText()).toContain('待确认');
    await row(contractNo)
      .getByRole('button', { name: /确\s*认/ })
      .click();
    await submitDialog(dialog());
    // The list opens on the contracts waiting for it: the confirmed one leaves it.
    await expect.poll(() => row(contractNo).count()).toBe(0);

    await page.goto(`${server.baseURL}/maintenance/equipment`);
    for (const name of elevators) await row(name).waitFor();
    expect(await page.locator('.ant-table-row').filter({ visible: true }).count()).toBe(elevators.length);
  });

  it('files a record through the form and submits it; nbadmin confirms it and both see 已确认', { timeout: 240_000 }, async () => {
    await page.goto(`${server.baseURL}/maintenance/record-form?mode=add`);
    await select('维保合同', contractNo);
    await select('设备', elevators[0]);
    const today = todayIn();
    await date('维保日期', today);
    await date('下次维保日期', addToDate(today, 15, 'd'));
    await textbox('维保人员').fill('端到端维保工');
    await select('维保项目', undefined, true);
    await page
      .getByRole('button', { name: /提交确认/ })
      .filter({ visible: true })
      .click();
    // Committed: the record stays open, read-only.
    await page.getByText('提交确认成功').first().waitFor();
    await page.getByText('维保记录 · 查看').waitFor();
    await logOut(page);

    await logInAs(page, server.baseURL, 'nbadmin');
    await page.goto(`${server.baseURL}/company-service/weibaoDa`);
    const record = () => row(elevators[0]).filter({ hasText: '待确认' });
    await record().first().waitFor();
    await record()
      .first()
      .getByRole('button', { name: /确\s*认/ })
      .click();
    await textbox('使用单位确认人').fill('王安全');
    await submitDialog(dialog());
    await expect.poll(() => row(elevators[0]).filter({ hasText: '王安全' }).first().innerText()).toContain('已确认');
    await logOut(page);

    await logIn(page, server.baseURL, { loginName: unit.loginName, password, orgCode: unit.orgcode });
    await page.waitForURL(/\/home$/);
    await page.goto(`${server.baseURL}/maintenance/record`);
    await expect.poll(async () => (await row(elevators[0]).count()) && row(elevators[0]).first().innerText()).toContain('已确认');
  });
});
