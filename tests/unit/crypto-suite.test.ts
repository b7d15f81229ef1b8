import { describe, expect, it } from 'vitest';
import { deriveKey, isSealed, keyedDigest, seal, tokenDigest, unseal } from '../../src/server/services/crypto-suite';
import { loadConfig } from '../../src/server/config';

describe('crypto suite', () => {
  it('hashes with SHA-256 by default and SM3 in sm mode (published test vectors)', () => {
    expect(tokenDigest('standard', 'abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // GB/T 32905-2016 example 1.
    expect(tokenDigest('sm', 'abc')).toBe('66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0');
    expect(keyedDigest('sm', Buffer.from('k'), 'abc')).not.toBe(keyedDigest('standard', Buffer.from('k'), 'abc'));
  });

  it('seals and unseals in both modes; a wrong key or an altered value is refused', () => {
    const key = deriveKey(Buffer.alloc(32, 7), 'test')!;
    const other = deriveKey(Buffer.alloc(32, 8), 'test')!;
    for (const mode of ['standard', 'sm'] as const) {
      const sealed = seal(mode, key, '私钥 secret');
      expect(isSealed(sealed)).toBe(true);
      expect(sealed).not.toContain('secret');
      expect(unseal(key, sealed)).toBe('私钥 secret');
      expect(() => unseal(other, sealed)).toThrow();
      const raw = Buffer.from(sealed.split(':')[2], 'base64');
      raw[raw.length - 1] ^= 1;
      expect(() => unseal(key, `sealed:${mode}:${raw.toString('base64')}`)).toThrow();
    }
    expect(deriveKey(null, 'test')).toBeNull();
  });

  it('reads the master key as hex or base64 and refuses anything else in Chinese', () => {
    expect(loadConfig({ PORTAL_MASTER_KEY: 'ab'.repeat(32) }).masterKey).toEqual(Buffer.alloc(32, 0xab));
    expect(loadConfig({ PORTAL_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') }).masterKey).toEqual(Buffer.alloc(32, 1));
    expect(() => loadConfig({ PORTAL_MASTER_KEY: 'short' })).toThrow(/PORTAL_MASTER_KEY/);
    expect(() => loadConfig({ PORTAL_AUDIT_RETENTION_DAYS: '30' })).toThrow(/180/);
  });
});
