/**
 * The server's secrets: the RSA key pair the browser encrypts login fields with, and the SSO
 * signing secret. Generated on first start and stored in `sys_config` so that every server process
 * over the same database uses the same keys; nothing secret lives in the repository.
 */
import { createPrivateKey, generateKeyPair, privateDecrypt, randomBytes, constants, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from '../db/index';
import { getOrCreateSetting } from './settings-store';

const generateKeyPairAsync = promisify(generateKeyPair);

export interface ServerKeys {
  /** SPKI PEM handed to the browser. */
  publicKeyPem: string;
  privateKey: KeyObject;
  ssoSecret: Buffer;
}

async function newRsaKeyPair(): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return JSON.stringify({ publicKey, privateKey });
}

export async function loadServerKeys(db: Db): Promise<ServerKeys> {
  const rsa = JSON.parse(await getOrCreateSetting(db, 'auth.rsaKeyPair', newRsaKeyPair)) as { publicKey: string; privateKey: string };
  const ssoSecret = await getOrCreateSetting(db, 'auth.ssoSecret', () => randomBytes(32).toString('base64'));
  return { publicKeyPem: rsa.publicKey, privateKey: createPrivateKey(rsa.privateKey), ssoSecret: Buffer.from(ssoSecret, 'base64') };
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
