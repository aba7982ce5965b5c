import type { Config } from '../../core/config/config.js';
import type { Db } from '../db/connect.js';
import { findApiKey, generateApiKey, insertApiKey } from './api-keys.js';
import { createCompany } from './companies.js';
import { keptInDataDir } from './data-dir-secret.js';

/**
 * Makes sure the bootstrap API key exists, so an operator (and `make run`'s curl line) starts with a
 * known key. The configured SHOTFARM_BOOTSTRAP_KEY wins; without one, embedded mode generates a key
 * once and keeps it in <data dir>/bootstrap-key (mode 0600). Returns the key, or null when none applies.
 */
export async function ensureBootstrapKey(db: Db, config: Config, opts: { generate: boolean }): Promise<string | null> {
  const key = config.bootstrapKey ?? (opts.generate ? keptInDataDir(config.dataDir, 'bootstrap-key', generateApiKey) : null);
  if (!key) return null;
  if (await findApiKey(db, key)) return key;
  const company = await createCompany(db, { name: 'Bootstrap account' }, config.bootstrapCredits, 'bootstrap credits');
  // The operator's key acts as an admin user, so it can see the farm (GET /admin/nodes).
  const [admin] = await db('users')
    .insert({ company_id: company.id, email: `admin+${company.id}@shotfarm.local`, name: 'Operator', roles: JSON.stringify(['user', 'admin']), email_verified: true, signup_provider: 'bootstrap' })
    .returning('id');
  await insertApiKey(db, company.id, key, 'bootstrap', Number(admin.id));
  return key;
}

/** The JWT secret: configured, or generated once and kept in <data dir>/jwt-secret (mode 0600). */
export function resolveJwtSecret(config: Config): string {
  return config.jwtSecret ?? keptInDataDir(config.dataDir, 'jwt-secret', () => generateApiKey() + generateApiKey());
}
