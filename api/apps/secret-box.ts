import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets at rest (app tokens, keys, webhook secrets) with AES-256-GCM. The stored form is one
 * text: `enc:v1:<iv>:<tag>:<ciphertext>` (base64url parts), so a settings JSON keeps its shape and a value
 * that is already encrypted is recognisable. GCM authenticates: a tampered value or a wrong key fails
 * to decrypt instead of yielding garbage.
 */
const PREFIX = 'enc:v1:';
/** 96-bit IVs are GCM's native size; a fresh random one per value (never reused with the same key). */
const IV_BYTES = 12;

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secrets key must be 32 bytes (AES-256)');
  }

  static isEncrypted(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${data.toString('base64url')}`;
  }

  /** Throws when the value was not made by `encrypt` with this key (tampered, or another installation's key). */
  decrypt(stored: string): string {
    const [iv, tag, data] = stored.startsWith(PREFIX) ? stored.slice(PREFIX.length).split(':') : [];
    if (iv === undefined || tag === undefined || data === undefined) throw new Error('not an encrypted secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
