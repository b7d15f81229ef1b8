/**
 * The server's keys: login fields under SM2 with PORTAL_CRYPTO=sm (the default RSA-OAEP login is
 * login.test.ts), and the private keys and SSO secret sealed in `sys_config` under
 * PORTAL_MASTER_KEY — sealed when written, sealed in place when an earlier start left them plain,
 * and a start without the master key, or with another one, refused naming PORTAL_MASTER_KEY.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import smCrypto from 'sm-crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { StartupError } from '../../src/server/config';
import { loadServerKeys, SECRET_SETTINGS } from '../../src/server/services/server-keys';
import { API, type Envelope, type PublicKeyInfo } from '../../src/shared/contract';
import { api, appSuite, dbTargets, demo, encrypt, freshPostgresDatabase, login, makeApp, publicKey, type DbTarget } from './helpers';
import { match } from '../support/match';

const MASTER_KEY = randomBytes(32);

async function secretRows(app: FastifyInstance): Promise<Record<string, string>> {
  const rows = await app.db.selectFrom('sys_config').select(['key', 'value']).where('key', 'in', Object.values(SECRET_SETTINGS)).execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

async function loginAs(app: FastifyInstance, loginName: string) {
  const { password, orgCode } = demo(loginName);
  return login(app, loginName, password, orgCode);
}

describe.each(dbTargets())('国密 login, keys sealed (%s)', (target) => {
  const { app } = appSuite(target, { build: { crypto: 'sm', masterKey: MASTER_KEY } });

  it('publishes an SM2 public key (uncompressed point, hex) and names the algorithm', async () => {
    const res = await app.inject({ method: 'GET', url: api(API.publicKey) });
    const { data } = res.json<Envelope<PublicKeyInfo>>();
    expect(data).toEqual({ publicKey: match.stringMatching(/^04[0-9a-f]{128}$/), algorithm: 'SM2' });
  });

  it('logs in with the fields SM2-encrypted', async () => {
    expect(await loginAs(app, 'nbadmin')).toMatchObject({ result: 'true', user: { loginName: 'nbadmin' } });
  });

  it('refuses fields that are not SM2 ciphertexts under its key', async () => {
    const key = await publicKey(app);
    const { loginName, password, orgCode } = demo('nbadmin');
    const other = smCrypto.sm2.getPublicKeyFromPrivateKey(randomBytes(32).toString('hex'));
    const good = encrypt(key, password);
    const tampered = good.slice(0, -2) + (good.endsWith('00') ? '01' : '00');
    const refused = [
      Buffer.from(password).toString('base64'), // not hex at all
      encrypt(other, password), // another key
      tampered, // C3 no longer matches
      good.slice(2), // without C1's 04 prefix
      '',
    ];
    for (const bad of refused) {
      const res = await app.inject({
        method: 'POST',
        url: api(API.login),
        payload: { username: encrypt(key, loginName), password: bad, orgCode: encrypt(key, orgCode) },
      });
      expect(res.json(), bad).toMatchObject({ result: 'false', code: 'CREDENTIALS_UNDECRYPTABLE' });
    }
    // An empty field is a valid ciphertext (of ''), refused as wrong credentials like under RSA.
    expect(await login(app, loginName, '', orgCode)).toMatchObject({ result: 'false', message: '账号或密码错误' });
  });

  it('keeps the SM2 private key and the SSO secret sealed at rest, and creates no RSA key', async () => {
    const rows = await secretRows(app);
    expect(Object.keys(rows).sort()).toEqual([SECRET_SETTINGS.sm2, SECRET_SETTINGS.sso].sort());
    for (const value of Object.values(rows)) expect(value).toMatch(/^sealed:sm:/);
    expect(JSON.stringify(rows)).not.toContain(app.keys.publicKey);
    expect(JSON.stringify(rows)).not.toContain(app.keys.ssoSecret.toString('base64'));
  });
});

/**
 * One database started several times: plain keys first (no master key), sealed in place by a start
 * with it, then refused without it or with another key. `makeApp('pglite', …)` with an explicit
 * location reuses that database instead of making a new one.
 */
describe.each(dbTargets())('server keys across restarts (%s)', (target: DbTarget) => {
  const scratch = mkdtempSync(join(tmpdir(), 'portal-keys-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await dropDatabase?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function location() {
    if (target === 'pglite') return { dataDir: join(scratch, 'pgdata') };
    const database = await freshPostgresDatabase();
    dropDatabase = database.drop;
    return { databaseUrl: database.url };
  }

  it('seals plain keys in place once, keeps them across restarts, and refuses a start without the master key', { timeout: 240_000 }, async () => {
    const where = await location();
    const start = (masterKey: Buffer | null) => makeApp('pglite', { ...where, masterKey });

    // A start without a master key: the keys as before, PEM in the table.
    const first = await start(null);
    const plainPublicKey = await publicKey(first.app);
    const plain = await secretRows(first.app);
    expect(plain[SECRET_SETTINGS.rsa]).toContain('PRIVATE KEY');
    // Two processes upgrading together: both read the plain keys, one update wins, both agree.
    const config = { crypto: 'standard', masterKey: MASTER_KEY } as const;
    const [a, b] = await Promise.all([loadServerKeys(first.app.db, config), loadServerKeys(first.app.db, config)]);
    expect([a.publicKey, b.publicKey]).toEqual([plainPublicKey, plainPublicKey]);
    expect(a.ssoSecret.equals(b.ssoSecret)).toBe(true);
    await first.close();

    // With the master key: sealed, the same keys, login works.
    const second = await start(MASTER_KEY);
    const sealed = await secretRows(second.app);
    expect(Object.keys(sealed).sort()).toEqual([SECRET_SETTINGS.rsa, SECRET_SETTINGS.sso].sort());
    for (const value of Object.values(sealed)) expect(value).toMatch(/^sealed:standard:/);
    expect(JSON.stringify(sealed)).not.toContain('PRIVATE KEY');
    expect(await publicKey(second.app)).toBe(plainPublicKey);
    expect(second.app.keys.ssoSecret.equals(a.ssoSecret)).toBe(true);
    expect(await loginAs(second.app, 'nbadmin')).toMatchObject({ result: 'true' });
    await second.close();

    // Again with the same key: nothing re-sealed (idempotent).
    const third = await start(MASTER_KEY);
    expect(await secretRows(third.app)).toEqual(sealed);
    await third.close();

    // Without it, or with another: refused, naming PORTAL_MASTER_KEY in one line.
    for (const [masterKey, words] of [
      [null, 'is not set'],
      [randomBytes(32), 'is not the key'],
    ] as const) {
      const failure = await start(masterKey).then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(StartupError);
      const line = (failure as StartupError).line();
      expect(line).toMatch(/^启动失败：PORTAL_MASTER_KEY .+ \/ Failed to start: PORTAL_MASTER_KEY /);
      expect(line).toContain(words);
      expect(line).not.toContain('\n');
    }
  });
});
