/**
 * The outbox SMS provider (the demo default) keeps a message's text — which holds the code — out of
 * the info log: info says that a message went out (masked mobile, purpose), debug has the text, the
 * outbox table has the message. A message with a secret (a temporary password) is delivered whole
 * but the outbox keeps it masked.
 */
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createSmsService, maskSecrets, outboxProvider, type SmsMessage, type SmsProvider } from '../../src/server/services/sms';
import { match } from '../support/match';

describe('outbox provider logging', () => {
  it('logs the code only at debug, and stores the message in the outbox', async () => {
    const lines: { level: string; entry: unknown }[] = [];
    const at = (level: string) => (entry: unknown) => void lines.push({ level, entry });
    const log = { info: at('info'), debug: at('debug'), warn: at('warn'), error: at('error') } as unknown as FastifyBaseLogger;
    const stored: unknown[] = [];
    const db = { insertInto: (table: string) => ({ values: (row: unknown) => ({ execute: async () => void stored.push({ table, row }) }) }) };
    const text = '【特种设备企业服务平台】您的验证码为482913，5分钟内有效。';
    await outboxProvider(log).deliver(db as never, { mobile: '13805740099', purpose: 'dlgzh', text, storedText: text });

    expect(stored).toEqual([{ table: 'sys_sms_outbox', row: match.objectContaining({ mobile: '13805740099', purpose: 'dlgzh', text }) }]);
    const info = lines.filter((l) => l.level === 'info').map((l) => JSON.stringify(l.entry));
    expect(info).toEqual([JSON.stringify({ sms: { mobile: '138****0099', purpose: 'dlgzh' } })]);
    expect(info.join()).not.toContain('482913');
    expect(lines.filter((l) => l.level === 'debug').map((l) => l.entry)).toEqual([{ sms: { mobile: '13805740099', purpose: 'dlgzh', text } }]);
  });

  it('delivers a secret whole and stores it masked', async () => {
    const lines: unknown[] = [];
    const log = { info: () => undefined, debug: (entry: unknown) => void lines.push(entry) } as unknown as FastifyBaseLogger;
    const stored: { text: string }[] = [];
    const db = { insertInto: () => ({ values: (row: { text: string }) => ({ execute: async () => void stored.push(row) }) }) };
    const sms = createSmsService(db as never, outboxProvider(log), '平台');
    await sms.notify('13805740099', 'reset-result', { text: '临时密码为 k7mq2xpa9b ，请登录后立即修改密码。', secrets: ['k7mq2xpa9b'] });
    expect(stored.map((r) => r.text)).toEqual(['【平台】临时密码为 ****** ，请登录后立即修改密码。']);
    expect(JSON.stringify(lines)).toContain('【平台】临时密码为 k7mq2xpa9b ，');
  });

  it('hands a provider both texts; a plain message is stored as sent', async () => {
    const sent: SmsMessage[] = [];
    const provider: SmsProvider = { name: 'test', deliver: async (_db, message) => void sent.push(message) };
    const sms = createSmsService({} as never, provider);
    await sms.notify('13805740099', 'apply', '您的申请已通过');
    await sms.notify('13805740099', 'reset', { text: 'a1b2 和 a1b2 与 c3', secrets: ['a1b2', '', 'c3'] });
    expect(sent.map((m) => [m.text, m.storedText])).toEqual([
      ['您的申请已通过', '您的申请已通过'],
      ['a1b2 和 a1b2 与 c3', '****** 和 ****** 与 ******'],
    ]);
    expect(maskSecrets({ text: 'x', secrets: [] })).toBe('x');
  });
});
