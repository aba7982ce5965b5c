import type { Knex } from 'knex';

/**
 * Billing: payment methods, subscriptions and one receipt per subscription period. Credits a period
 * grants go through the ledger with the reason `plan:<subscription id>:<period start>`; the unique
 * index on those reasons makes a second grant of one period impossible, whoever runs the renewal.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('payment_methods', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    // The public id clients pass back (the spec's `token`); random, so it tells nothing of the account.
    t.string('token', 64).notNullable().unique();
    t.string('provider', 40).notNullable();
    t.string('provider_ref', 255).notNullable();
    t.string('type', 10).notNullable(); // card, paypal
    t.string('brand', 40);
    t.string('last4', 4);
    t.integer('expiration_month');
    t.integer('expiration_year');
    t.string('email', 320);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['company_id', 'id']);
  });

  await db.schema.createTable('subscriptions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('plan_id', 64).notNullable();
    // active, cancelled (runs to the end of its period), past_due (a charge failed), ended
    t.string('status', 20).notNullable();
    t.bigInteger('payment_method_id').references('payment_methods.id').onDelete('SET NULL');
    t.string('provider', 40).notNullable();
    // Periods are calendar months counted from the anchor, so the 31st does not drift to the 28th.
    t.timestamp('anchor', { useTz: true }).notNullable();
    t.integer('period_number').notNullable().defaultTo(0);
    t.timestamp('current_period_start', { useTz: true }).notNullable();
    t.timestamp('current_period_end', { useTz: true }).notNullable();
    t.timestamp('cancelled_at', { useTz: true });
    t.timestamp('ended_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['company_id', 'id']);
    // The renewal's scan: live subscriptions whose period has ended.
    t.index(['status', 'current_period_end']);
  });
  // One live subscription per account: subscribing again changes it, never adds a second one.
  await db.raw("create unique index subscriptions_one_live on subscriptions (company_id) where status in ('active', 'cancelled')");

  await db.schema.createTable('receipts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('subscription_id').notNullable().references('subscriptions.id').onDelete('CASCADE');
    t.string('plan_id', 64).notNullable();
    t.timestamp('period_start', { useTz: true }).notNullable();
    t.timestamp('period_end', { useTz: true }).notNullable();
    t.bigInteger('amount_cents').notNullable();
    t.string('currency', 3).notNullable();
    // paid, invoiced, failed (the provider's outcome of the period)
    t.string('status', 20).notNullable();
    t.string('provider', 40).notNullable();
    t.string('provider_ref', 255).notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true });
    // One receipt per period: a renewal that runs twice cannot issue a second one.
    t.unique(['subscription_id', 'period_start']);
    t.index(['company_id', 'id']);
  });

  await db.raw("create unique index credit_ledger_plan_grant_once on credit_ledger (reason) where reason like 'plan:%'");
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists credit_ledger_plan_grant_once');
  for (const table of ['receipts', 'subscriptions', 'payment_methods']) await db.schema.dropTableIfExists(table);
}
