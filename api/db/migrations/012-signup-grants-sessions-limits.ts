import type { Knex } from 'knex';

/**
 * Closes three ways in from outside (issue 25):
 * - `companies.signup_mailbox`: the inbox (api/accounts/mailbox.ts) of the email an account was opened
 *   with by POST /auth/signup; null for accounts the operator opened (bootstrap, CLI, tests). Such an
 *   account gets credits only once one of its users has verified its email, and its free grants (signup
 *   credits, a plan that costs nothing) only when it holds its inbox's row of `mailbox_free_grants`, taken
 *   by the first account of that inbox to verify: one inbox, one free account, however many `+tags`.
 * - `revoked_sessions`: the session tokens ended by a logout, checked with the user's row on every request
 *   (one indexed look-up in the same statement), so every API replica refuses them at once. A row is kept
 *   until the token would have expired anyway.
 * - `auth_limits`: the counters of the login and signup limits (api/auth/limit-counters.ts), in the database
 *   so that every replica counts together and a restart forgets nothing.
 *
 * Backfill: an account whose first user came through signup (signup_provider `email`: CLI and bootstrap
 * users say `cli` and `bootstrap`) gets its signup_mailbox; verified ones take their inbox's free grant in
 * the order they signed up, as they would have.
 */

/** Users read per statement while backfilling. */
const CHUNK = 1000;

/** api/accounts/mailbox.ts's mailboxOf as of this migration (frozen: a later change must not rewrite history). */
function mailboxOf(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 1) return lower;
  const domain = lower.slice(at + 1);
  let local = lower.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const gmail = domain === 'gmail.com' || domain === 'googlemail.com';
  return gmail ? `${local.replace(/\./g, '')}@gmail.com` : `${local}@${domain}`;
}

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('companies', (t) => {
    t.string('signup_mailbox', 320);
  });
  await db.schema.createTable('mailbox_free_grants', (t) => {
    t.string('mailbox', 320).primary();
    t.bigInteger('company_id').notNullable().unique().references('companies.id').onDelete('CASCADE');
    t.timestamp('granted_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('revoked_sessions', (t) => {
    // SHA-256 of the token: 64 characters whatever the token's length.
    t.string('token_hash', 64).primary();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
  });
  await db.schema.createTable('auth_limits', (t) => {
    // `login_account`, `login_address` or `signup_address`.
    t.string('kind', 20).notNullable();
    // the email, or the client address as the limits count it (IPv4, or an IPv6 /64)
    t.string('key', 320).notNullable();
    t.integer('count').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.timestamp('last_at', { useTz: true }).notNullable().index();
    // no attempt from this key is checked before then (the login delay of an address)
    t.timestamp('blocked_until', { useTz: true });
    t.primary(['kind', 'key']);
  });

  const seen = new Set<number>();
  for (let after = 0; ;) {
    const users = (await db('users').where('signup_provider', 'email').where('id', '>', after).orderBy('id').limit(CHUNK).select('id', 'company_id', 'email', 'email_verified')) as {
      id: number | string;
      company_id: number | string;
      email: string;
      email_verified: boolean;
    }[];
    if (users.length === 0) return;
    for (const user of users) {
      const companyId = Number(user.company_id);
      if (seen.has(companyId)) continue;
      seen.add(companyId);
      const mailbox = mailboxOf(user.email);
      await db('companies').where({ id: companyId }).update({ signup_mailbox: mailbox });
      if (user.email_verified) await db('mailbox_free_grants').insert({ mailbox, company_id: companyId }).onConflict('mailbox').ignore();
    }
    after = Number(users[users.length - 1]?.id);
  }
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('auth_limits');
  await db.schema.dropTableIfExists('revoked_sessions');
  await db.schema.dropTableIfExists('mailbox_free_grants');
  await db.schema.alterTable('companies', (t) => t.dropColumn('signup_mailbox'));
}
