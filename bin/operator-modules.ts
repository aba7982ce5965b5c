/**
 * What the operator commands of bin/shotfarm.ts (migrate, keys, users, credits, options) use of the control
 * plane, in one module they load when one of them runs: the process commands, `shotfarm agent` above all,
 * never load knex or the API's modules (test/unit/process-roots.test.ts walks the imports).
 */
export { connectDatabase } from '../api/db/connect.js';
export { migrateLatest } from '../api/db/migrate.js';
export { findApiKey, generateApiKey, insertApiKey } from '../api/accounts/api-keys.js';
export { listApiKeys, revokeApiKey } from '../api/accounts/key-management.js';
export { passwordResetLink } from '../api/auth/account-email.js';
export { emailParam } from '../api/auth/auth-params.js';
export { issueOneTimeToken } from '../api/auth/one-time-tokens.js';
export { readParams } from '../api/options/read-params.js';
export { CAPTURE_OPTIONS } from '../api/options/create-params.js';
export { optionsMarkdownTable } from '../api/options/option-table.js';
export { createCompany, getCompany } from '../api/accounts/companies.js';
export { recordCredit } from '../api/accounts/ledger.js';
