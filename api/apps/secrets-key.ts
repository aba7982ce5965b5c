import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../core/config/config.js';

/**
 * The key app secrets are encrypted with: SHOTFARM_SECRETS_KEY, or generated once and kept in
 * <data dir>/secrets-key (mode 0600, hex), as the JWT secret is. Losing it makes stored app secrets
 * unreadable (their runs fail with a clear error until the settings are saved again).
 */
export function resolveSecretsKey(config: Config): Buffer {
  if (config.apps.secretsKey) return config.apps.secretsKey;
  const file = path.join(config.dataDir, 'secrets-key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  const key = randomBytes(32);
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600 });
  return key;
}
