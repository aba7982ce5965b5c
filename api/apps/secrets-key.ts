import { randomBytes } from 'node:crypto';
import type { Config } from '../../core/config/config.js';
import { keptInDataDir } from '../accounts/data-dir-secret.js';

/**
 * The key app secrets are encrypted with: SHOTFARM_SECRETS_KEY, or generated once and kept in
 * <data dir>/secrets-key (hex), as the JWT secret is. Losing it makes stored app secrets unreadable
 * (their runs fail with a clear error until the settings are saved again).
 */
export function resolveSecretsKey(config: Config): Buffer {
  return (
    config.apps.secretsKey ??
    Buffer.from(
      keptInDataDir(config.dataDir, 'secrets-key', () => randomBytes(32).toString('hex')),
      'hex',
    )
  );
}
