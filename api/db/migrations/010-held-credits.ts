import type { Knex } from 'knex';

/**
 * companies.held_credits: the credits the account's records still `processing` hold (the sum of their cost),
 * kept by the transactions that insert such a record and that end it (api/accounts/held-credits.ts). A create
 * is then one conditional UPDATE of the account's row (balance − held ≥ cost) instead of a lock of the row and
 * a SUM over the account's processing records, which serialised one account's creates behind that SUM and
 * slowed them as its backlog grew. Backfilled from the records processing now.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('companies', (t) => {
    t.bigInteger('held_credits').notNullable().defaultTo(0);
  });
  await db.raw(`
    UPDATE companies c SET held_credits = h.held
    FROM (SELECT company_id, SUM(cost) AS held FROM screenshots WHERE status = 'processing' GROUP BY company_id) h
    WHERE c.id = h.company_id`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('companies', (t) => t.dropColumn('held_credits'));
}
