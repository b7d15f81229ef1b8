/**
 * The outbox SMS provider (the demo default) keeps a message's text — which holds the code — out of
 * the info log: info says that a message went out (masked mobile, purpose), debug has the text, the
 * outbox table has the message.
 */
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { outboxProvider } from '../../src/server/services/sms';

describe('outbox provider logging', () => {
  it('logs the code only at debug, and stores the message in the outbox', async () => {
    const lines: { level: string; entry: unknown }[] = [];
    const at = (level: string) => (entry: unknown) => void lines.push({ level, entry });
    const log = { info: at('info'), debug: at('debug'), warn: at('warn'), error: at('error') } as unknown as FastifyBaseLogger;
    const stored: unknown[] = [];
    const db = { insertInto: (table: string) => ({ values: (row: unknown) => ({ execute: async () => void stored.push({ table, row }) }) }) };
    const text = '【特种设备企业服务平台】您的验证码为482913，5分钟内有效。';
    await outboxProvider(log).deliver(db as never, { mobile: '13805740099', purpose: 'dlgzh', text });

    expect(stored).toEqual([{ table: 'sys_sms_outbox', row: expect.objectContaining({ mobile: '13805740099', purpose: 'dlgzh', text }) }]);
    const info = lines.filter((l) => l.level === 'info').map((l) => JSON.stringify(l.entry));
    expect(info).toEqual([JSON.stringify({ sms: { mobile: '138****0099', purpose: 'dlgzh' } })]);
    expect(info.join()).not.toContain('482913');
    expect(lines.filter((l) => l.level === 'debug').map((l) => l.entry)).toEqual([{ sms: { mobile: '13805740099', purpose: 'dlgzh', text } }]);
  });
});
