import type { Knex } from 'knex';

/**
 * Plan switches and invoiced customers:
 * - subscriptions.next_plan_id: a downgrade waits for the next period (the current one was paid and
 *   granted on the higher plan), and the renewal opens that period on it;
 * - companies.invoiced: the operator (an admin) approved the account to pay by invoice, through the
 *   built-in offline provider; self-service accounts may not (SHOTFARM_OFFLINE_PAYMENTS).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.string('next_plan_id', 64);
  });
  await db.schema.alterTable('companies', (t) => {
    t.boolean('invoiced').notNullable().defaultTo(false);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => t.dropColumn('next_plan_id'));
  await db.schema.alterTable('companies', (t) => t.dropColumn('invoiced'));
}
