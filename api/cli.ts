#!/usr/bin/env node
/**
 * `shotfarm`: the one command of the project. Each subcommand is a thin composition root: it reads the
 * configuration, starts what it needs, and stops it in reverse on SIGINT/SIGTERM. This file is the one
 * place in api/ allowed to reach drivers/ and node-agent/ (for the embedded all-in-one process).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { runBatchCreate } from './batches/batch-cli.js';
import { loadConfig, ConfigError } from '../core/config/load-config.js';
import { SETTINGS } from '../core/config/settings.js';
import { settingsMarkdownTable } from '../core/config/settings-table.js';
import type { Config } from '../core/config/config.js';
import { connectDatabase } from '../core/db/connect.js';
import { migrateLatest } from '../core/db/migrate.js';
import { findApiKey, generateApiKey, insertApiKey } from './accounts/api-keys.js';
import { createCompany, getCompany } from './accounts/companies.js';
import { recordCredit } from './accounts/ledger.js';
import { startControlPlane, type ControlPlane } from './control-plane.js';
import { PluginRegistryError } from '../plugins/registry.js';
import { resolveJwtSecret } from './accounts/bootstrap.js';
import { createLogger } from '../core/logger.js';
import { openFarmParts } from '../grid/farm-parts.js';
import { createAgent } from '../node-agent/create-agent.js';
import { captureOnce } from '../node-agent/one-off-capture.js';
import { runAgent } from '../node-agent/run-agent.js';

function config(): Config {
  return configWith({});
}

/** The configuration from the environment with some settings given by flags. */
function configWith(overrides: Record<string, string | undefined>): Config {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  try {
    return loadConfig({ ...process.env, ...given });
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

function printWelcome(plane: ControlPlane, cfg: Config): void {
  const lines = [
    '',
    `shotfarm is running at ${plane.url}`,
    `  OpenAPI: ${plane.url}/api/v1/openapi.json`,
  ];
  // Said at start because it changes the answers' shape from the spec's.
  if (cfg.clientCompat !== 'spec') lines.push(`  Client compatibility: ${cfg.clientCompat} (SHOTFARM_CLIENT_COMPAT): a create of one screenshot answers an object, batch create the Batch object`);
  if (plane.bootstrapKey) {
    lines.push(`  API key: ${plane.bootstrapKey}`, '', 'Take a first screenshot:', `  curl '${plane.url}/api/v1/screenshot/create?url=https://example.com&key=${plane.bootstrapKey}'`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

const program = new Command('shotfarm').description('Self-hosted screenshot service built as a browser farm').showHelpAfterError();

program.command('serve').description('embedded all-in-one: API, in-process queue and a browser agent in one process').action(async () => {
  const cfg = config();
  const log = createLogger(cfg.logLevel);
  const parts = await openFarmParts(cfg, resolveJwtSecret(cfg), log, 'shotfarm-serve');
  // The agent warms its browsers before the API opens, so the first request finds a live node.
  const agent = await createAgent(cfg, parts, log);
  await agent.start();
  const plane = await startControlPlane(cfg, { generateBootstrapKey: true, farm: parts, logger: log });
  // Stopped in reverse: the agent drains first while the API still records its last results.
  stopOnSignal([parts.close, plane.stop, agent.stop.bind(agent)]);
  printWelcome(plane, cfg);
});

program.command('api').description('control plane only (distributed mode: agents join over NATS)').action(async () => {
  const cfg = config();
  const log = createLogger(cfg.logLevel);
  const parts = await openFarmParts(cfg, resolveJwtSecret(cfg), log, 'shotfarm-api');
  const plane = await startControlPlane(cfg, { generateBootstrapKey: false, farm: parts, logger: log });
  stopOnSignal([parts.close, plane.stop]);
  printWelcome(plane, cfg);
});

const list = (v: string): string => v.split(',').map((x) => x.trim()).filter(Boolean).join(',');

program.command('agent').description('a browser node: takes jobs from the farm over NATS (needs NATS_URL; S3_* for shared storage)')
  .option('--browsers <list>', 'browsers this node offers (chrome,firefox,brave)', list)
  .option('--slots <n>', 'captures at once', integer(1))
  .option('--countries <list>', 'countries this node egresses from (fr,de)', list)
  .option('--driver <name>', 'playwright or selenium')
  .option('--grid-url <url>', 'Selenium Grid 4 URL (with --driver selenium)')
  .action(async (opts: { browsers?: string; slots?: number; countries?: string; driver?: string; gridUrl?: string }) => {
    // Flags win over the environment; both go through the one configuration loader and its checks.
    const cfg = configWith({
      SHOTFARM_AGENT_BROWSERS: opts.browsers, SHOTFARM_AGENT_SLOTS: opts.slots?.toString(), SHOTFARM_AGENT_COUNTRIES: opts.countries,
      SHOTFARM_DRIVER: opts.driver, SELENIUM_GRID_URL: opts.gridUrl,
    });
    const log = createLogger(cfg.logLevel);
    const agent = await runAgent(cfg, log);
    stopOnSignal([agent.stop]);
    process.stdout.write(`shotfarm agent ${cfg.agent.nodeId} is taking ${cfg.agent.browsers.join(', ')} jobs (${cfg.agent.slots} slots); health and metrics at ${agent.url}\n`);
  });

program.command('nodes').description('list the live nodes of the farm (reads the NATS registry)').action(async () => {
  const cfg = config();
  const log = createLogger('silent');
  if (!cfg.natsUrl) {
    process.stderr.write('shotfarm: the farm registry lives in NATS: set NATS_URL (embedded mode lists its node at GET /api/v1/admin/nodes)\n');
    process.exitCode = 2;
    return;
  }
  const parts = await openFarmParts(cfg, resolveJwtSecret(cfg), log, 'shotfarm-nodes');
  try {
    const nodes = await parts.registry.list();
    if (nodes.length === 0) process.stdout.write('no live nodes\n');
    for (const n of nodes) {
      process.stdout.write(`${n.id}\t${n.host}\t${n.browsers.map((b) => `${b.name} (${b.version}, ${b.driver})`).join(', ')}\tslots ${n.slots}\tin flight ${n.inFlight}\tdone ${n.jobsDone}\tfailures ${n.failures}\t${n.countries.join(',') || 'any country'}${n.draining ? '\tdraining' : ''}\n`);
    }
  } finally {
    await parts.close();
  }
});

program.command('capture').description('one capture on this machine with the farm\'s engine; writes the outputs (checks a browser machine)')
  .argument('<url>', 'the page to capture')
  .option('-o, --output <file>', 'image file; html/pdf/video go beside it', 'capture.png')
  .option('--browser <name>', 'chrome, firefox or brave', 'chrome')
  .option('--driver <name>', 'playwright or selenium', 'playwright')
  .option('--grid-url <url>', 'Selenium Grid 4 URL (with --driver selenium)')
  .allowUnknownOption(true)
  .allowExcessArguments(true)
  .action(async (url: string, opts: { output: string; browser: string; driver: string; gridUrl?: string }, command: Command) => {
    const cfg = configWith({ SHOTFARM_DRIVER: opts.driver, SELENIUM_GRID_URL: opts.gridUrl, LOG_LEVEL: 'silent' });
    const options = createOptions(command.args.slice(1));
    try {
      process.exitCode = await captureOnce(cfg, url, { output: opts.output, options: { ...options, browser: opts.browser } }, (l) => process.stdout.write(`${l}\n`));
    } catch (err) {
      const fields = (err as { extra?: { fields?: Record<string, string[]> } }).extra?.fields;
      process.stderr.write(`shotfarm: capture failed: ${fields ? Object.entries(fields).map(([k, v]) => `${k} ${v.join('; ')}`).join(', ') : (err as Error).message}\n`);
      process.exitCode = 1;
    }
  });

const batch = program.command('batch').description('batch jobs: a file of URLs to a ZIP');
batch.command('create').description('upload a list of URLs (one per line, or CSV/TSV with url and filename columns)')
  .argument('<file>', 'the list')
  .option('--wait', 'show progress until the batch is done')
  .option('-o, --output <zip>', 'download the ZIP here when done (implies --wait)')
  .option('--api <url>', 'the API base URL (default: http://localhost:<PORT>)')
  .option('--key <key>', 'API key (default: SHOTFARM_BOOTSTRAP_KEY, else <data dir>/bootstrap-key)')
  .allowUnknownOption(true)
  .allowExcessArguments(true)
  .action(async (file: string, opts: { wait?: boolean; output?: string; api?: string; key?: string }, command: Command) => {
    const cfg = config();
    const keyFile = path.join(cfg.dataDir, 'bootstrap-key');
    const key = opts.key ?? cfg.bootstrapKey ?? (fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8').trim() : '');
    if (!key) {
      process.stderr.write('shotfarm: give an API key with --key (or SHOTFARM_BOOTSTRAP_KEY)\n');
      process.exitCode = 2;
      return;
    }
    try {
      process.exitCode = await runBatchCreate({
        api: opts.api ?? `http://localhost:${cfg.port}`, key, file, wait: opts.wait === true, output: opts.output ?? null,
        fields: createOptions(command.args.slice(1)), progress: process.stderr, print: (l) => process.stdout.write(`${l}\n`),
      });
    } catch (err) {
      process.stderr.write(`shotfarm: batch failed: ${(err as Error).message}\n`);
      process.exitCode = 1;
    }
  });

/** `--size page --pdf 1 --html` → {size: 'page', pdf: '1', html: '1'}: any create option as a flag. */
function createOptions(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) continue;
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const next = args[i + 1];
    if (inline !== undefined) out[name] = inline;
    else if (next !== undefined && !next.startsWith('--')) {
      out[name] = next;
      i += 1;
    } else out[name] = '1';
  }
  return out;
}

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

program.command('settings').description('list every setting with its default and meaning')
  .option('--markdown', 'print the settings table of docs/operators.md')
  .action((opts: { markdown?: boolean }) => {
    if (opts.markdown) process.stdout.write(`${settingsMarkdownTable()}\n`);
    else for (const s of SETTINGS) process.stdout.write(`${s.name}\t${s.default}\t${s.meaning}\n`);
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
      const companyId = opts.company ?? (opts.key ? (await findApiKey(db, opts.key))?.key.company_id : undefined);
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

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // A plugin list that cannot load is a configuration problem: say which, exit 2 like invalid settings.
  if (!(err instanceof PluginRegistryError)) throw err;
  process.stderr.write(`shotfarm: ${err.message}\n`);
  process.exit(2);
}
