#!/usr/bin/env node
/**
 * `shotfarm`: the one command of the project. Each subcommand is a thin composition root: it reads the
 * configuration, starts what it needs, and stops it in reverse on SIGINT/SIGTERM. This file is the one
 * place in api/ allowed to reach drivers/ and node-agent/ (for the embedded all-in-one process).
 */
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, ConfigError } from '../core/config/load-config.js';
import { SETTINGS } from '../core/config/settings.js';
import type { Config } from '../core/config/config.js';
import { connectDatabase } from '../core/db/connect.js';
import { migrateLatest } from '../core/db/migrate.js';
import { findApiKey, generateApiKey, insertApiKey } from './accounts/api-keys.js';
import { createCompany, getCompany } from './accounts/companies.js';
import { recordCredit } from './accounts/ledger.js';
import { startControlPlane, type ControlPlane } from './control-plane.js';

function config(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`shotfarm: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

const integer = (min: number) => (value: string): number => {
  if (!/^-?\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`must be a whole number of at least ${min}`);
  return Number(value);
};

/** Runs until SIGINT/SIGTERM, then stops the started parts in reverse order. */
function stopOnSignal(stoppers: (() => Promise<void>)[]): void {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`shotfarm: ${signal} received, stopping\n`);
    for (const s of [...stoppers].reverse()) await s().catch((e: unknown) => process.stderr.write(`shotfarm: stop failed: ${String(e)}\n`));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

function printWelcome(plane: ControlPlane): void {
  const lines = [
    '',
    `shotfarm is running at ${plane.url}`,
    `  OpenAPI: ${plane.url}/api/v1/openapi.json`,
  ];
  if (plane.bootstrapKey) {
    lines.push(`  API key: ${plane.bootstrapKey}`, '', 'Take a first screenshot:', `  curl '${plane.url}/api/v1/screenshot/create?url=https://example.com&key=${plane.bootstrapKey}'`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

const program = new Command('shotfarm').description('Self-hosted screenshot service built as a browser farm').showHelpAfterError();

program.command('serve').description('the embedded all-in-one service (PGlite and files in the data dir)').action(async () => {
  const plane = await startControlPlane(config(), { generateBootstrapKey: true });
  stopOnSignal([plane.stop]);
  printWelcome(plane);
});

program.command('api').description('control plane only (distributed mode: agents join over NATS)').action(async () => {
  const plane = await startControlPlane(config(), { generateBootstrapKey: false });
  stopOnSignal([plane.stop]);
  printWelcome(plane);
});

program.command('migrate').description('bring the database schema up to date').action(async () => {
  const cfg = config();
  const db = connectDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  try {
    const applied = await migrateLatest(db);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
  } finally {
    await db.destroy();
  }
});

program.command('settings').description('list every setting with its default and meaning').action(() => {
  for (const s of SETTINGS) process.stdout.write(`${s.name}\t${s.default}\t${s.meaning}\n`);
});

const keys = program.command('keys').description('API keys');
keys.command('create').description('create an API key; a new account unless --company is given')
  .option('--credits <n>', 'opening credits of the new account', integer(0), 0)
  .option('--company <id>', 'add the key to this existing account', integer(1))
  .option('--name <name>', 'a name for the key', 'cli')
  .action(async (opts: { credits: number; company?: number; name: string }) => {
    const cfg = config();
    const db = connectDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
    try {
      await migrateLatest(db);
      const companyId = opts.company ?? (await createCompany(db, { name: `Account ${new Date().toISOString()}` }, opts.credits, 'cli: keys create')).id;
      if (!(await getCompany(db, companyId))) throw new InvalidArgumentError(`no account ${companyId}`);
      const key = generateApiKey();
      await insertApiKey(db, companyId, key, opts.name);
      const company = await getCompany(db, companyId);
      process.stdout.write(`${JSON.stringify({ key, company_id: companyId, balance: company?.balance ?? 0 })}\n`);
    } finally {
      await db.destroy();
    }
  });

const credits = program.command('credits').description('account credits');
credits.command('add').description('grant credits to an account (through the ledger)')
  .requiredOption('--amount <n>', 'credits to add', integer(1))
  .option('--company <id>', 'the account id', integer(1))
  .option('--key <key>', 'the account that owns this API key')
  .option('--reason <text>', 'why, for the ledger', 'cli: credits add')
  .action(async (opts: { amount: number; company?: number; key?: string; reason: string }) => {
    const cfg = config();
    const db = connectDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
    try {
      await migrateLatest(db);
      const companyId = opts.company ?? (opts.key ? (await findApiKey(db, opts.key))?.company_id : undefined);
      if (companyId === undefined || !(await getCompany(db, Number(companyId)))) {
        process.stderr.write('shotfarm: name an existing account with --company ID or --key KEY\n');
        process.exitCode = 2;
        return;
      }
      const balance = await db.transaction((trx) => recordCredit(trx, { companyId: Number(companyId), delta: opts.amount, reason: opts.reason.slice(0, 200) }));
      process.stdout.write(`${JSON.stringify({ company_id: Number(companyId), balance })}\n`);
    } finally {
      await db.destroy();
    }
  });

await program.parseAsync(process.argv);
