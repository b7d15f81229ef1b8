/** The open registration (/register, reached from the login page) as a visitor fills it in. */
import type { Page } from 'playwright-core';
import { makeUscc } from '../../../src/server/db/uscc';
import type { SmsSuite } from './sms';

/** A 1×1 PNG to put into an upload field. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export interface Filed {
  orgcode: string;
  orgname: string;
  loginName: string;
  mobile: string;
}

/**
 * Files a new unit's application on /register with the code sent to `mobile`; `more` fills what a
 * kind of unit adds (e.g. a maintenance unit's licence) before the code is asked for.
 */
export async function registerUnit(
  { page, server, codeFor }: Pick<SmsSuite, 'page' | 'server' | 'codeFor'>,
  mobile: string,
  password: string,
  more?: (field: (label: string | RegExp) => ReturnType<Page['getByLabel']>) => Promise<void>,
): Promise<Filed> {
  const field = (label: string | RegExp) => page.getByLabel(label, { exact: typeof label === 'string' });
  const stamp = Date.now()
    .toString(36)
    .slice(-4)
    .toUpperCase()
    .replace(/[IOSVZ]/g, 'A');
  const filed = {
    orgcode: makeUscc('91', '330203', `MA9${stamp}E`.slice(0, 8)),
    orgname: `宁波端到端测试${stamp}有限公司`,
    loginName: `e2e_reg_${stamp.toLowerCase()}`,
    mobile,
  };
  await page.goto(`${server.baseURL}/login`);
  await page.getByRole('link', { name: '企业账号注册' }).click();
  await page.waitForURL(/\/register$/);
  await field('单位名称').fill(filed.orgname);
  await field('统一社会信用代码').fill(filed.orgcode);
  await field('详细地址').fill('浙江省宁波市海曙区端到端路1号');
  await field('法定代表人').fill('陈测试');
  await field('法定代表人身份证号').fill('110101199003070070');
  await field('联系人').fill('林联系');
  await field('联系人手机').fill(mobile);
  await field('登录账号').fill(filed.loginName);
  await field('登录密码').fill('simple12');
  await page.getByText('密码强度不足').waitFor();
  await field('登录密码').fill(password);
  await field('确认密码').fill(password);
  await page.locator('input[type=file]').first().setInputFiles({ name: '营业执照.png', mimeType: 'image/png', buffer: PNG });
  // Done, not just listed: the file is the field's value once its upload finished.
  await page.locator('.ant-upload-list-item-done', { hasText: '营业执照.png' }).waitFor();
  await more?.(field);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await page.getByRole('button', { name: /秒后重新获取/ }).waitFor();
  await field('短信验证码').fill(await codeFor(mobile, 'register'));
  await page.getByRole('button', { name: '提交注册申请' }).click();
  await page.waitForURL(/\/register-success/);
  await page.getByText('注册申请已提交').first().waitFor();
  return filed;
}
