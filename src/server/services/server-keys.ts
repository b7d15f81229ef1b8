/**
 * The server's secrets: the key pair the browser encrypts login fields with (RSA, or SM2 with
 * PORTAL_CRYPTO=sm) and the SSO signing secret. Generated on first start and stored in `sys_config`
 * so that every server process over the same database uses the same keys; nothing secret lives in
 * the repository. With PORTAL_MASTER_KEY set they are stored sealed (crypto-suite.ts), and a key
 * stored in plain text by an earlier start is sealed in place.
 */
import { createPrivateKey, generateKeyPair, privateDecrypt, randomBytes, constants, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import smCrypto from 'sm-crypto';
import { StartupError, type Config } from '../config';
import type { Db } from '../db/index';
import { deriveKey, isSealed, seal, unseal, type CryptoMode } from './crypto-suite';
import { getOrCreateSetting } from './settings-store';

const generateKeyPairAsync = promisify(generateKeyPair);
const { sm2 } = smCrypto;

/** How the browser encrypts login fields, as the public-key endpoint names it. */
export type LoginCipher = 'RSA-OAEP' | 'SM2';

export interface ServerKeys {
  algorithm: LoginCipher;
  /** Handed to the browser: SPKI PEM (RSA-OAEP) or the uncompressed point in hex, `04`‖x‖y (SM2). */
  publicKey: string;
  /** One login field as the browser sent it, decrypted; null when it is not a ciphertext for our key. */
  decrypt(field: string): string | null;
  ssoSecret: Buffer;
}

/** The `sys_config` rows holding secrets. */
export const SECRET_SETTINGS = { rsa: 'auth.rsaKeyPair', sm2: 'auth.sm2KeyPair', sso: 'auth.ssoSecret' } as const;

async function newRsaKeyPair(): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return JSON.stringify({ publicKey, privateKey });
}

/** The SM2 curve order n; a private key d must satisfy 1 ≤ d ≤ n − 2. */
const SM2_ORDER = BigInt('0xFFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123');

/** An SM2 key pair in hex; the private scalar comes from Node's CSPRNG rather than the library's. */
function newSm2KeyPair(): string {
  for (;;) {
    const d = BigInt(`0x${randomBytes(32).toString('hex')}`);
    if (d < 1n || d > SM2_ORDER - 2n) continue;
    const privateKey = d.toString(16).padStart(64, '0');
    return JSON.stringify({ publicKey: sm2.getPublicKeyFromPrivateKey(privateKey), privateKey });
  }
}

const masterKeyError = (zh: string, en: string) => new StartupError('PORTAL_MASTER_KEY', zh, en);

/**
 * One secret row: read (and created when `create` is given and it is missing), unsealed when
 * sealed, and sealed in place when a master key is set and it is still plain text. The in-place
 * update only replaces the plain value it read, so processes starting together agree.
 */
async function secret(db: Db, key: string, box: { mode: CryptoMode; key: Buffer } | null, create?: () => Promise<string> | string): Promise<string | null> {
  const stored = create
    ? await getOrCreateSetting(db, key, async () => (box ? seal(box.mode, box.key, await create()) : create()))
    : ((await db.selectFrom('sys_config').select('value').where('key', '=', key).executeTakeFirst())?.value ?? null);
  if (stored === null) return null;
  if (isSealed(stored)) {
    if (!box)
      throw masterKeyError(
        '未设置：数据库中的服务器密钥已加密保存，需原主密钥才能启动',
        'is not set: the server keys in the database are sealed and need the master key they were sealed with',
      );
    try {
      return unseal(box.key, stored);
    } catch {
      throw masterKeyError('与加密保存服务器密钥时所用的主密钥不一致', 'is not the key the server keys in the database were sealed with');
    }
  }
  if (box)
    await db
      .updateTable('sys_config')
      .set({ value: seal(box.mode, box.key, stored) })
      .where('key', '=', key)
      .where('value', '=', stored)
      .execute();
  return stored;
}

export async function loadServerKeys(db: Db, config: Pick<Config, 'crypto' | 'masterKey'>): Promise<ServerKeys> {
  const sealKey = deriveKey(config.masterKey, 'server-keys');
  const box = sealKey ? { mode: config.crypto, key: sealKey } : null;
  const sm = config.crypto === 'sm';
  const [rsaJson, sm2Json, ssoSecret] = [
    await secret(db, SECRET_SETTINGS.rsa, box, sm ? undefined : newRsaKeyPair),
    await secret(db, SECRET_SETTINGS.sm2, box, sm ? newSm2KeyPair : undefined),
    (await secret(db, SECRET_SETTINGS.sso, box, () => randomBytes(32).toString('base64')))!,
  ];
  const sso = Buffer.from(ssoSecret, 'base64');
  if (sm) {
    const pair = JSON.parse(sm2Json!) as { publicKey: string; privateKey: string };
    return { algorithm: 'SM2', publicKey: pair.publicKey, decrypt: (field) => decryptSm2Field(pair.privateKey, field), ssoSecret: sso };
  }
  const pair = JSON.parse(rsaJson!) as { publicKey: string; privateKey: string };
  const privateKey = createPrivateKey(pair.privateKey);
  return { algorithm: 'RSA-OAEP', publicKey: pair.publicKey, decrypt: (field) => decryptField(privateKey, field), ssoSecret: sso };
}

/**
 * Decrypts one RSA-OAEP (SHA-256) field encrypted by the browser and sent as base64. Returns null
 * when the value is not a valid ciphertext for our key.
 */
export function decryptField(privateKey: KeyObject, base64: string): string | null {
  // A form body decoded without %2B turns '+' into ' '; undo that before decoding.
  const ciphertext = Buffer.from(base64.trim().replace(/ /g, '+'), 'base64');
  if (ciphertext.length === 0) return null;
  try {
    return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ciphertext).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * Decrypts one SM2 field: hex of C1‖C3‖C2 (GM/T 0003 order) with C1 the uncompressed point
 * `04`‖x‖y, as src/app/crypto.ts sends it. Returns null when it is not a ciphertext for our key
 * (the library answers '' for a failed check, so an empty plain text is recognised by its empty C2).
 */
export function decryptSm2Field(privateKeyHex: string, hex: string): string | null {
  const value = hex.trim().toLowerCase();
  // 04, C1 (128 hex digits), C3 (64), then C2 of any whole number of bytes.
  if (!/^04[0-9a-f]{192}(?:[0-9a-f]{2})*$/.test(value)) return null;
  const body = value.slice(2);
  try {
    const plain = sm2.doDecrypt(body, privateKeyHex, 1);
    return plain === '' && body.length > 192 ? null : plain;
  } catch {
    return null;
  }
}
