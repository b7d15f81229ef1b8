/** Resource calls from inside the browser page, in its session (cookie). */
import type { Page } from 'playwright-core';
import type { Envelope } from '../../../src/shared/contract';

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
