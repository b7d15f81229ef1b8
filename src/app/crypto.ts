/**
 * Login field encryption under the key the server hands out with its algorithm, each field
 * separately (credentials are never sent in clear):
 * - RSA-OAEP with SHA-256 under an SPKI PEM key, base64 (Web Crypto; the default);
 * - SM2 under the uncompressed point in hex, C1C3C2 with C1's `04` prefix, hex (PORTAL_CRYPTO=sm).
 *   sm-crypto is loaded only then, so the default login page does not download it.
 */
import type { PublicKeyInfo } from '../shared/contract';

/** Encrypts one field for the login form. */
export type FieldEncrypter = (value: string) => Promise<string>;

const INSECURE_CONTEXT_MESSAGE = '当前浏览器环境不支持登录加密，请使用 HTTPS 地址访问';

function pemToDer(pem: string): ArrayBuffer {
  const base64 = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return bytes.buffer;
}

function toBase64(buffer: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export async function fieldEncrypter({ publicKey, algorithm }: PublicKeyInfo): Promise<FieldEncrypter> {
  if (algorithm === 'SM2') {
    const { sm2 } = (await import('sm-crypto')).default;
    return async (value) => `04${sm2.doEncrypt(value, publicKey, 1)}`;
  }
  if (!globalThis.crypto?.subtle) throw new Error(INSECURE_CONTEXT_MESSAGE);
  const key = await crypto.subtle.importKey('spki', pemToDer(publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  return async (value) => toBase64(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(value)));
}
