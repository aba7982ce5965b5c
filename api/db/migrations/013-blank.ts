import type { Knex } from 'knex';

/**
 * screenshots.blank: the capture looked blank (one colour, or no visible text and no image), as the agent
 * found it (drivers/shared/blank-check.ts). False while processing, and on records that ended before it existed.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => {
    t.boolean('blank').notNullable().defaultTo(false);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('screenshots', (t) => t.dropColumn('blank'));
}
