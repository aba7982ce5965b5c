import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../../core/db/connect.js';
import { findApiKey, generateApiKey, insertApiKey } from './api-keys.js';
import { createCompany } from './companies.js';

/**
 * Makes sure the bootstrap API key exists, so an operator (and `make run`'s curl line) starts with a
 * known key. The configured SHOTFARM_BOOTSTRAP_KEY wins; without one, embedded mode generates a key
 * once and keeps it in <data dir>/bootstrap-key (mode 0600). Returns the key, or null when none applies.
 */
export async function ensureBootstrapKey(db: Db, config: Config, opts: { generate: boolean }): Promise<string | null> {
  let key = config.bootstrapKey;
  const file = path.join(config.dataDir, 'bootstrap-key');
  if (!key && opts.generate) {
    if (fs.existsSync(file)) key = fs.readFileSync(file, 'utf8').trim();
    else {
      key = generateApiKey();
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
    }
  }
  if (!key) return null;
  if (await findApiKey(db, key)) return key;
  const company = await createCompany(db, { name: 'Bootstrap account' }, config.bootstrapCredits, 'bootstrap credits');
  // The operator's key acts as an admin user, so it can see the farm (GET /admin/nodes).
  const [admin] = await db('users').insert({ company_id: company.id, email: `admin+${company.id}@shotfarm.local`, name: 'Operator', roles: JSON.stringify(['user', 'admin']), email_verified: true, signup_provider: 'bootstrap' }).returning('id');
  await insertApiKey(db, company.id, key, 'bootstrap', Number(admin.id));
  return key;
}

/** The JWT secret: configured, or generated once and kept in <data dir>/jwt-secret (mode 0600). */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = generateApiKey() + generateApiKey();
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
