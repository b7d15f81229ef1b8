/** Resource calls from inside the browser page, in its session (cookie), and a login over HTTP. */
import { constants, publicEncrypt } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { DemoAccount } from '../../../src/server/db/seed';
import type { Envelope } from '../../../src/shared/contract';

/** Logs an account in over HTTP at the API base `api` (fields RSA-encrypted as the login page does); returns the session id. */
export async function loginOverHttp(api: string, { loginName, password, orgCode }: DemoAccount): Promise<string> {
  const key = ((await (await fetch(`${api}/a/stone/common/publicKey`)).json()) as Envelope<{ publicKey: string }>).data!.publicKey;
  const encrypt = (text: string) => publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text)).toString('base64');
  const form = new URLSearchParams({ username: encrypt(loginName), password: encrypt(password), orgCode: encrypt(orgCode), validateCode: '', __ajax: 'json' });
  const reply = (await (await fetch(`${api}/a/login`, { method: 'POST', body: form })).json()) as Envelope<unknown> & { sessionid?: string };
  if (reply.result !== 'true' || !reply.sessionid) throw new Error(`login of ${loginName} failed: ${reply.message}`);
  return reply.sessionid;
}

/** A resource call in the page's session (cookie), answering the envelope's data; throws with the server's message on failure. */
export async function apiCall<T>(page: Page, path: string, body: Record<string, unknown>): Promise<T> {
  const reply = await page.evaluate(
    async ({ path, body }): Promise<Envelope<T>> => {
      const res = await fetch(`/espServer${path}`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Envelope<T>;
    },
    { path, body },
  );
  if (reply.result !== 'true') throw new Error(`${path}: ${reply.message}`);
  return reply.data as T;
}

/** A new in-use elevator of the signed-in unit in 鄞州 (the save body): what a journey applies for or contracts. */
export function elevatorBody(equipmentName: string, lastInspectionDate = '2025-06-01'): Record<string, string> {
  return {
    equipmentName,
    equclacode: '3000',
    subCategory: '3100',
    useStatus: '1',
    locationArea: '330212',
    address: '宁波市鄞州区天童南路588号',
    lastInspectionDate,
  };
}
