import type { Knex } from 'knex';

/**
 * The first schema. Every tenant-owned table carries company_id, and every query scopes by it.
 * Screenshot columns are named exactly as the record's fields so that the record is the row.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('companies', (t) => {
    t.bigIncrements('id');
    t.string('name', 200).notNullable();
    t.string('email', 320).notNullable().defaultTo('');
    // The balance is only ever changed together with a credit_ledger row (see api/accounts/ledger.ts).
    t.bigInteger('balance').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });

  await db.schema.createTable('users', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('email', 320).notNullable().unique();
    t.string('password_hash', 255);
    t.string('name', 200);
    t.jsonb('roles').notNullable().defaultTo('["user"]');
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.string('signup_provider', 40).notNullable().defaultTo('email');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['company_id']);
  });

  await db.schema.createTable('api_keys', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('user_id').references('users.id').onDelete('SET NULL');
    t.string('name', 200);
    // Only the SHA-256 of the key is stored; the key itself is shown once, at creation.
    t.string('key_hash', 64).notNullable().unique();
    t.string('key_prefix', 16).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['company_id']);
  });

  await db.schema.createTable('batches', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 200);
    t.string('status', 20).notNullable().defaultTo('processing');
    t.text('error').notNullable().defaultTo('');
    t.integer('count').notNullable().defaultTo(0);
    t.integer('processed').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.jsonb('options').notNullable().defaultTo('{}');
    t.bigInteger('started');
    t.bigInteger('finished');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['company_id', 'id']);
  });

  await db.schema.createTable('crawls', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('status', 20).notNullable().defaultTo('processing');
    t.string('domain', 255).notNullable();
    t.text('start_url').notNullable();
    t.integer('max_urls').notNullable();
    t.integer('total_discovered').notNullable().defaultTo(0);
    t.integer('processed').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.text('error').notNullable().defaultTo('');
    t.jsonb('options').notNullable().defaultTo('{}');
    t.bigInteger('started');
    t.bigInteger('finished');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['company_id', 'id']);
  });

  await db.schema.createTable('screenshots', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('api_key_id').references('api_keys.id').onDelete('SET NULL');
    t.bigInteger('batch_id').references('batches.id').onDelete('SET NULL');
    t.bigInteger('crawl_id').references('crawls.id').onDelete('SET NULL');
    t.string('status', 20).notNullable().defaultTo('processing');
    t.text('error').notNullable().defaultTo('');
    t.text('url').notNullable();
    t.text('final_url').notNullable().defaultTo('');
    t.jsonb('final_urls').notNullable().defaultTo('[]');
    t.integer('response_code');
    t.integer('cost').notNullable();
    t.string('country', 2).notNullable();
    t.string('region', 64).notNullable();
    t.string('language', 5).notNullable();
    t.string('timezone', 64).notNullable();
    t.boolean('geo_enable').notNullable();
    t.double('geo_latitude').notNullable();
    t.double('geo_longitude').notNullable();
    t.string('size', 6).notNullable();
    t.integer('cache').notNullable();
    t.integer('delay').notNullable();
    t.integer('screen_width').notNullable();
    t.integer('screen_height').notNullable();
    t.integer('max_height').notNullable();
    t.integer('priority').notNullable();
    t.text('referer').notNullable();
    t.text('post_data').notNullable();
    t.text('cookie').notNullable();
    t.text('script').notNullable();
    t.text('script_inline').notNullable();
    t.text('header').notNullable();
    t.text('user_agent').notNullable();
    t.boolean('html').notNullable();
    t.boolean('pdf').notNullable();
    t.boolean('video').notNullable();
    t.boolean('pdf_background').notNullable();
    t.boolean('pdf_one_page').notNullable();
    t.boolean('pdf_landscape').notNullable();
    t.string('pdf_format', 10).notNullable();
    t.string('pdf_margin', 32).notNullable();
    t.string('pdf_margin_top', 32).notNullable();
    t.string('pdf_margin_bottom', 32).notNullable();
    t.string('pdf_margin_left', 32).notNullable();
    t.string('pdf_margin_right', 32).notNullable();
    t.string('video_format', 10).notNullable();
    t.integer('video_quality').notNullable();
    t.double('video_speed').notNullable();
    t.integer('video_duration').notNullable();
    t.integer('video_fps').notNullable();
    t.integer('video_colors').notNullable();
    t.double('video_scale').notNullable();
    t.integer('max_wait').notNullable();
    t.boolean('hide_popups').notNullable();
    t.boolean('hide_ads').notNullable();
    t.boolean('dark').notNullable();
    t.boolean('strict_ssl').notNullable();
    t.integer('shots').notNullable();
    t.integer('shot_interval').notNullable();
    t.text('target').notNullable();
    t.string('device_name', 100).notNullable();
    t.double('device_scale').notNullable();
    t.boolean('device_mobile').notNullable();
    t.boolean('device_touch').notNullable();
    t.boolean('device_landscape').notNullable();
    t.string('browser', 10).notNullable();
    t.jsonb('tag').notNullable().defaultTo('[]');
    t.jsonb('steps').notNullable().defaultTo('[]');
    t.jsonb('trackers').notNullable().defaultTo('[]');
    t.jsonb('links').notNullable().defaultTo('[]');
    // Beyond the spec: what the capture could not honour, and where its time went.
    t.jsonb('warnings').notNullable().defaultTo('[]');
    t.jsonb('timings').notNullable().defaultTo('{}');
    t.text('browser_info').notNullable().defaultTo('');
    // Beyond the spec: how the job was routed (agent:<cc>, proxy:<cc>, any) and which node captured it.
    t.string('routing', 64).notNullable().defaultTo('');
    t.string('node_id', 200).notNullable().defaultTo('');
    // The normalised CaptureSpec sent to the farm, and its hash for the cache lookup.
    t.jsonb('capture_spec').notNullable();
    t.string('spec_hash', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.index(['company_id', 'id']);
    t.index(['company_id', 'status']);
    t.index(['company_id', 'spec_hash', 'finished_at']);
    t.index(['batch_id']);
    t.index(['crawl_id']);
  });

  await db.schema.createTable('screenshot_files', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('screenshot_id').notNullable().references('screenshots.id').onDelete('CASCADE');
    t.string('kind', 10).notNullable(); // image, html, pdf, video
    t.integer('shot'); // 1-based, images only
    t.text('storage_key').notNullable();
    t.string('content_type', 100).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['screenshot_id', 'kind', 'shot']);
  });

  await db.schema.createTable('app_configs', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('app_id', 100).notNullable();
    t.string('type', 64).notNullable();
    t.string('name', 200).notNullable();
    // Settings JSON with secret fields encrypted (AES-256-GCM) before they are stored.
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['company_id', 'app_id']);
  });

  await db.schema.createTable('app_runs', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('screenshot_id').notNullable().references('screenshots.id').onDelete('CASCADE');
    t.bigInteger('app_config_id').notNullable().references('app_configs.id').onDelete('CASCADE');
    t.string('status', 20).notNullable().defaultTo('pending');
    t.text('filename').notNullable().defaultTo('');
    t.text('error').notNullable().defaultTo('');
    t.text('output_url').notNullable().defaultTo('');
    t.jsonb('output_data');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['screenshot_id', 'app_config_id']);
  });

  await db.schema.createTable('credit_ledger', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    // Positive grants credits, negative debits them.
    t.bigInteger('delta').notNullable();
    t.bigInteger('balance_after').notNullable();
    t.string('reason', 200).notNullable();
    t.bigInteger('screenshot_id');
    // A debit for a screenshot is recorded at most once: a redelivered result cannot charge twice.
    t.unique(['screenshot_id', 'reason']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['company_id', 'id']);
  });

  await db.schema.createTable('idempotency_keys', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    // The credential the key was used with: `key:<api key id>` or `user:<user id>`.
    t.string('credential', 64).notNullable();
    t.string('key', 255).notNullable();
    t.string('resource_type', 20).notNullable();
    t.bigInteger('resource_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['credential', 'key']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['idempotency_keys', 'credit_ledger', 'app_runs', 'app_configs', 'screenshot_files', 'screenshots', 'crawls', 'batches', 'api_keys', 'users', 'companies']) {
    await db.schema.dropTableIfExists(table);
  }
}
