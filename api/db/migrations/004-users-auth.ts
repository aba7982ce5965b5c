import type { Knex } from 'knex';

/**
 * Dashboard users: one-time tokens (email verification, password reset), the outbox of account email,
 * and a user's session version: every session token carries it, and a password reset raises it, which ends
 * every session signed before the reset.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('auth_tokens', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // `verify_email` or `reset_password`: a token of one purpose is never accepted for the other.
    t.string('purpose', 20).notNullable();
    // Only the SHA-256 of the token is stored; the token itself travels in the email only.
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    // Set when the token is used: a second use finds it set and is refused.
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['user_id', 'purpose']);
  });

  await db.schema.createTable('email_outbox', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').references('users.id').onDelete('SET NULL');
    t.string('to_address', 320).notNullable();
    t.string('subject', 200).notNullable();
    t.text('body_text').notNullable();
    // What the message is for (verify_email, reset_password), for the admin reading the outbox.
    t.string('purpose', 40).notNullable();
    // `logged` (no SMTP configured: written to the log only), `pending`, `sent` or `failed`.
    t.string('status', 10).notNullable();
    t.text('error').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('sent_at', { useTz: true });
  });

  await db.schema.alterTable('users', (t) => {
    t.integer('session_version').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('users', (t) => {
    t.dropColumn('session_version');
  });
  await db.schema.dropTableIfExists('email_outbox');
  await db.schema.dropTableIfExists('auth_tokens');
}
