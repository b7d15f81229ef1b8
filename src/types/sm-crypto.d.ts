/**
 * The part of sm-crypto (0.5) this project uses: SM2 encryption of login fields. @types/sm-crypto
 * describes 0.3 and lacks getPublicKeyFromPrivateKey. The package is CommonJS: import its default.
 */
declare module 'sm-crypto' {
  /** 1 = C1C3C2 (GM/T 0003), 0 = C1C2C3. Ciphertexts are hex without C1's `04` prefix. */
  type CipherMode = 0 | 1;
  const smCrypto: {
    sm2: {
      /** Hex ciphertext of the UTF-8 text under an uncompressed public key (`04`‖x‖y, hex). */
      doEncrypt(msg: string, publicKey: string, cipherMode?: CipherMode): string;
      /** The UTF-8 text, or '' when the ciphertext does not check out under the key. */
      doDecrypt(encryptData: string, privateKey: string, cipherMode?: CipherMode): string;
      getPublicKeyFromPrivateKey(privateKey: string): string;
    };
  };
  export default smCrypto;
}
