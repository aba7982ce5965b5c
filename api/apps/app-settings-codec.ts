import { SecretBox } from './secret-box.js';
import type { AppRegistry } from '../../plugins/registry.js';

/** What answers show instead of a secret; sending it back in an update keeps the stored secret. */
export const SECRET_MASK = '********';

type Settings = Record<string, unknown>;

/**
 * Settings as stored (secret fields encrypted), as used (decrypted) and as shown (secret fields
 * masked). Which fields are secret is the plugin's schema's say (`secret()`).
 */
export class AppSettingsCodec {
  constructor(
    private readonly registry: AppRegistry,
    private readonly box: SecretBox,
  ) {}

  seal(type: string, settings: Settings): Settings {
    const out = { ...settings };
    for (const field of this.registry.secretFields(type)) {
      const value = out[field];
      if (typeof value === 'string' && !SecretBox.isEncrypted(value)) out[field] = this.box.encrypt(value);
    }
    return out;
  }

  /** Throws when a secret cannot be decrypted (the secrets key changed): the run reports it. */
  open(type: string, stored: Settings): Settings {
    const out = { ...stored };
    for (const field of this.registry.secretFields(type)) {
      const value = out[field];
      if (typeof value === 'string' && SecretBox.isEncrypted(value)) {
        try {
          out[field] = this.box.decrypt(value);
        } catch {
          throw new Error(`the stored ${field} cannot be decrypted with this installation's SHOTFARM_SECRETS_KEY; save the app's settings again`);
        }
      }
    }
    return out;
  }

  mask(type: string, stored: Settings): Settings {
    const out = { ...stored };
    for (const field of this.registry.secretFields(type)) if (out[field] !== undefined && out[field] !== null) out[field] = SECRET_MASK;
    return out;
  }

  /**
   * An update's settings: secret fields left out or sent back masked keep their stored (encrypted) value,
   * so a client can edit other settings from what `/app/info` showed without knowing the secrets.
   */
  keepUnchangedSecrets(type: string, incoming: Settings, stored: Settings): Settings {
    const out = { ...incoming };
    for (const field of this.registry.secretFields(type)) {
      if ((out[field] === undefined || out[field] === SECRET_MASK) && stored[field] !== undefined) out[field] = stored[field];
    }
    return out;
  }
}
