import type { Knex } from 'knex';

/**
 * The crawl frontier, kept in the database so a crawl survives a restart of the API process:
 * every same-domain URL a crawl has seen, once (unique per crawl), with where it stands:
 * `discovered` (waiting), `queued` (its screenshot exists and is being captured) or `done`.
 * `host` is stored so the per-host politeness limit is one indexed count.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('crawl_urls', (t) => {
    t.bigIncrements('id');
    t.bigInteger('crawl_id').notNullable().references('crawls.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.string('host', 255).notNullable();
    t.string('status', 20).notNullable().defaultTo('discovered');
    t.bigInteger('screenshot_id').references('screenshots.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['crawl_id', 'url']);
    // Breadth first = oldest discovered first: the frontier is read in id order per status.
    t.index(['crawl_id', 'status', 'id']);
    t.index(['screenshot_id']);
  });
  // Later pages are created with the key that created the crawl, as the first page was.
  await db.schema.alterTable('crawls', (t) => {
    t.bigInteger('api_key_id').references('api_keys.id').onDelete('SET NULL');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('crawls', (t) => {
    t.dropColumn('api_key_id');
  });
  await db.schema.dropTableIfExists('crawl_urls');
}
