#!/usr/bin/env node
/**
 * `shotfarm`: the one command of the project, as a commander tree. Each process command loads its
 * composition root when it runs (bin/serve.ts, bin/api.ts, bin/agent.ts, bin/capture-once.ts): it reads the
 * configuration, starts what it needs, and stops it in reverse on SIGINT/SIGTERM. The operator commands load
 * the control plane's modules when they run (api/admin/operator-client.ts: through the running service on the
 * embedded database). So `shotfarm agent` never loads Koa, knex or any module of api/
 * (test/unit/process-roots.test.ts walks the imports of the built files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type * as BatchCliModule from '../api/batches/batch-cli.js';
import type { BatchApi, BatchOutput } from '../api/batches/batch-cli.js';
import { loadConfig, ConfigError } from '../core/config/load-config.js';
import { settingsInForce, settingsMarkdownTable } from '../core/config/settings-table.js';
import type { Config } from '../core/config/config.js';
import type { NodeRegistry } from '../core/contracts/node-registry.js';
import { ApiError } from '../core/errors.js';
import type { OperatorCommandName, OperatorInput, OperatorOutput } from '../api/admin/operator-commands.js';
import { PluginRegistryError } from '../plugins/registry.js';
import { createLogger } from '../core/logger.js';
import { registerAdapters } from '../core/di/adapters.js';
import { newContainer, TOKENS } from '../core/di/tokens.js';
import { gridAdapters } from '../grid/grid-adapters.js';

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

const integer =
  (min: number) =>
  (value: string): number => {
    if (!/^-?\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`must be a whole number of at least ${min}`);
    return Number(value);
  };

/** package.json's version: the file sits two folders above the built cli (dist/bin/shotfarm.js). */
const VERSION = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const program = new Command('shotfarm').description('Self-hosted screenshot service built as a browser farm').version(VERSION).showHelpAfterError();

program
  .command('serve')
  .description('embedded all-in-one: API, in-process queue and a browser agent in one process')
  .action(async () => {
    const cfg = config();
    await (await import('./serve.js')).serve(cfg);
  });

program
  .command('api')
  .description('control plane only (distributed mode: agents join over NATS)')
  .action(async () => {
    const cfg = config();
    await (await import('./api.js')).api(cfg);
  });

const list = (v: string): string =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .join(',');

program
  .command('agent')
  .description('a browser node: takes jobs from the farm over NATS (needs NATS_URL; S3_* for shared storage)')
  .option('--browsers <list>', 'browsers this node offers (chrome,firefox,brave)', list)
  .option('--slots <n>', 'captures at once', integer(1))
  .option('--countries <list>', 'countries this node egresses from (fr,de)', list)
  .option('--driver <name>', 'playwright or selenium')
  .option('--grid-url <url>', 'Selenium Grid 4 URL (with --driver selenium)')
  .action(async (opts: { browsers?: string; slots?: number; countries?: string; driver?: string; gridUrl?: string }) => {
    // Flags win over the environment; both go through the one configuration loader and its checks.
    const cfg = configWith({
      SHOTFARM_AGENT_BROWSERS: opts.browsers,
      SHOTFARM_AGENT_SLOTS: opts.slots?.toString(),
      SHOTFARM_AGENT_COUNTRIES: opts.countries,
      SHOTFARM_DRIVER: opts.driver,
      SELENIUM_GRID_URL: opts.gridUrl,
    });
    await (await import('./agent.js')).agentProcess(cfg);
  });

/** Runs `use` with the farm's NATS registry; embedded mode has none a separate process could reach. */
async function withFarmRegistry(use: (registry: NodeRegistry) => Promise<void>): Promise<void> {
  const cfg = config();
  if (!cfg.natsUrl) {
    process.stderr.write('shotfarm: the farm registry lives in NATS: set NATS_URL (embedded mode lists its node at GET /api/v1/admin/nodes)\n');
    process.exitCode = 2;
    return;
  }
  const container = newContainer();
  const adapters = await registerAdapters(container, cfg, { nodeRegistry: gridAdapters('shotfarm-nodes').nodeRegistry }, createLogger('silent'));
  try {
    const registry = container.resolve(TOKENS.NodeRegistry);
    adapters.assertResolved();
    await use(registry);
  } finally {
    await adapters.close();
  }
}

const nodesCommand = program
  .command('nodes')
  .description('list the live nodes of the farm (reads the NATS registry)')
  .action(() =>
    withFarmRegistry(async (registry) => {
      const nodes = await registry.list();
      if (nodes.length === 0) process.stdout.write('no live nodes\n');
      for (const n of nodes) {
        process.stdout.write(
          `${n.id}\t${n.host}\t${n.browsers.map((b) => `${b.name} (${b.version}, ${b.driver})`).join(', ')}\tslots ${n.slots}\tin flight ${n.inFlight}\tdone ${n.jobsDone}\tfailures ${n.failures}\t${n.countries.join(',') || 'any country'}${n.draining ? '\tdraining' : ''}\n`,
        );
      }
    }),
  );

for (const [name, drain] of [
  ['drain', true],
  ['undrain', false],
] as const) {
  nodesCommand
    .command(name)
    .description(drain ? 'ask a node to take no new job, finish those in flight, then leave (its process exits 0)' : 'withdraw a drain request the node has not finished yet')
    .argument('<id>', 'the node id (first column of `shotfarm nodes`)')
    .action((id: string) =>
      withFarmRegistry(async (registry) => {
        if (!(await registry.requestDrain(id, drain))) {
          process.stderr.write(`shotfarm: no live node ${JSON.stringify(id)} (see shotfarm nodes)\n`);
          process.exitCode = 1;
          return;
        }
        process.stdout.write(drain ? `${id}: draining; it leaves once its jobs in flight have finished\n` : `${id}: drain withdrawn\n`);
      }),
    );
}

program
  .command('capture')
  .description("one capture on this machine with the farm's engine; writes the outputs (checks a browser machine)")
  .argument('<url>', 'the page to capture')
  .option('-o, --output <file>', 'image file; html/pdf/video go beside it', 'capture.png')
  .option('--browser <name>', 'chrome, firefox or brave', 'chrome')
  .option('--driver <name>', 'playwright or selenium', 'playwright')
  .option('--grid-url <url>', 'Selenium Grid 4 URL (with --driver selenium)')
  .allowUnknownOption(true)
  .allowExcessArguments(true)
  .action(async (url: string, opts: { output: string; browser: string; driver: string; gridUrl?: string }, command: Command) => {
    const options = await createOptions(command.args.slice(1), 'create');
    const cfg = configWith({ SHOTFARM_DRIVER: opts.driver, SELENIUM_GRID_URL: opts.gridUrl, LOG_LEVEL: 'silent' });
    const { captureOnce } = await import('./capture-once.js');
    try {
      process.exitCode = await captureOnce(cfg, url, { output: opts.output, options: { ...options, browser: opts.browser } }, (l) => process.stdout.write(`${l}\n`));
    } catch (err) {
      const fields = (err as { extra?: { fields?: Record<string, string[]> } }).extra?.fields;
      process.stderr.write(
        `shotfarm: capture failed: ${
          fields
            ? Object.entries(fields)
                .map(([k, v]) => `${k} ${v.join('; ')}`)
                .join(', ')
            : (err as Error).message
        }\n`,
      );
      process.exitCode = 1;
    }
  });

const batch = program.command('batch').description('batch jobs: a file of URLs to a ZIP (talks to a running service over its API)');

/** The options every batch command takes to reach the service. */
const apiOptions = (command: Command): Command =>
  command
    .option('--api <url>', 'the API base URL (default: the running service of the data dir, else http://localhost:<PORT>)')
    .option('--key <key>', 'API key (default: SHOTFARM_BOOTSTRAP_KEY, else <data dir>/bootstrap-key)');

/** The service and key a batch command talks to; null (exit code 2, the reason on stderr) without a key. */
async function batchApi(opts: { api?: string; key?: string }): Promise<BatchApi | null> {
  const cfg = config();
  const keyFile = path.join(cfg.dataDir, 'bootstrap-key');
  const key = opts.key ?? cfg.bootstrapKey ?? (fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8').trim() : '');
  if (!key) {
    process.stderr.write('shotfarm: give an API key with --key (or SHOTFARM_BOOTSTRAP_KEY)\n');
    process.exitCode = 2;
    return null;
  }
  const { runningService } = await import('../api/admin/running-service.js');
  return { api: opts.api ?? runningService(cfg.dataDir)?.service_url ?? `http://localhost:${cfg.port}`, key };
}

/** The batch client (api/batches/batch-cli.ts: HTTP calls only), loaded when a batch command runs. */
type BatchCli = typeof BatchCliModule;

const batchOutput: BatchOutput = { progress: process.stderr, print: (l) => process.stdout.write(`${l}\n`) };

/**
 * Runs a batch command; an answer of the API that is not a success is said on stderr. Exit code 1,
 * or 2 for a request the API refused as invalid (400), like any other invalid argument.
 */
async function runBatchCommand(what: string, opts: { api?: string; key?: string }, run: (target: BatchApi, cli: BatchCli) => Promise<number>): Promise<void> {
  const target = await batchApi(opts);
  if (!target) return;
  const cli = await import('../api/batches/batch-cli.js');
  const { BatchApiError } = cli;
  try {
    process.exitCode = await run(target, cli);
  } catch (err) {
    process.stderr.write(`shotfarm: ${what}: ${(err as Error).message}\n`);
    process.exitCode = err instanceof BatchApiError && err.status === 400 ? 2 : 1;
  }
}

apiOptions(
  batch
    .command('create')
    .description('upload a list of URLs (one per line, or CSV/TSV with url and filename columns)')
    .argument('<file>', 'the list')
    .option('--wait', 'show progress until the batch is done')
    .option('-o, --output <zip>', 'download the ZIP here when done (implies --wait)'),
)
  .allowUnknownOption(true)
  .allowExcessArguments(true)
  .action(async (file: string, opts: { wait?: boolean; output?: string; api?: string; key?: string }, command: Command) => {
    const fields = await createOptions(command.args.slice(1), 'batch');
    await runBatchCommand('batch failed', opts, (target, { runBatchCreate }) => runBatchCreate({ ...target, ...batchOutput, file, wait: opts.wait === true, output: opts.output ?? null, fields }));
  });

apiOptions(batch.command('info').description("a batch's progress and status (the Batch as GET /batch/info answers it, one JSON line)").argument('<id>', 'the batch id', integer(1))).action(
  (id: number, opts: { api?: string; key?: string }) => runBatchCommand(`batch ${id}`, opts, (target, { runBatchInfo }) => runBatchInfo({ ...target, ...batchOutput }, id)),
);

apiOptions(batch.command('cancel').description('cancel a batch: screenshots not captured yet end unpaid, those done are kept').argument('<id>', 'the batch id', integer(1))).action(
  (id: number, opts: { api?: string; key?: string }) => runBatchCommand(`batch ${id}`, opts, (target, { runBatchCancel }) => runBatchCancel({ ...target, ...batchOutput }, id)),
);

apiOptions(
  batch
    .command('download')
    .description("download a batch's ZIP (while it runs: what has finished so far)")
    .argument('<id>', 'the batch id', integer(1))
    .option('-o, --output <zip>', 'where the ZIP goes (default: batch-<id>.zip)')
    .option('--wait', 'wait until the batch is done, showing progress, then download'),
).action((id: number, opts: { api?: string; key?: string; output?: string; wait?: boolean }) =>
  runBatchCommand(`batch ${id}`, opts, (target, { runBatchDownload }) => runBatchDownload({ ...target, ...batchOutput }, id, { output: opts.output ?? null, wait: opts.wait === true })),
);

apiOptions(
  program.command('mcp').description("shotfarm's tools for AI agents (MCP) over stdio, for Claude Desktop, Cursor and the MCP Inspector (talks to a running service over its API; docs/ai-agents.md)"),
).action(async (opts: { api?: string; key?: string }) => {
  const target = await batchApi(opts);
  if (!target) return;
  if (!(await (await import('./mcp.js')).mcp(config(), target, VERSION))) process.exitCode = 2;
});

/**
 * `--size page --pdf 1 --html` → {size: 'page', pdf: '1', html: '1'}: any create option as a flag. A name
 * the create table does not know is refused (exit 2), naming it and the option probably meant: a typo
 * must not quietly capture something else than asked.
 */
async function createOptions(args: string[], table: 'create' | 'batch'): Promise<Record<string, string>> {
  const { BATCH_OPTION_NAMES, CREATE_OPTION_NAMES, unknownOptions } = await import('./create-option-names.js');
  const out = optionFlags(args);
  const unknown = unknownOptions(Object.keys(out), table === 'create' ? CREATE_OPTION_NAMES : BATCH_OPTION_NAMES);
  if (unknown.length > 0) {
    for (const u of unknown) process.stderr.write(`shotfarm: unknown option '--${u.name}'${u.meant ? ` (did you mean --${u.meant}?)` : ''}\n`);
    process.exit(2);
  }
  return out;
}

function optionFlags(args: string[]): Record<string, string> {
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

program
  .command('migrate')
  .description('bring the database schema up to date')
  .action(() => operatorCommand('migrate', {}, ({ applied }) => process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n')));

program
  .command('settings')
  .description('the value in force of every setting (from the environment, else its default), secrets masked')
  .option('--markdown', 'print the settings table of docs/operators.md (defaults and meanings) instead')
  .action((opts: { markdown?: boolean }) => {
    if (opts.markdown) {
      process.stdout.write(`${settingsMarkdownTable()}\n`);
      return;
    }
    for (const s of settingsInForce(process.env)) process.stdout.write(`${s.name}\t${s.value}\t${s.source}\n`);
    // The values are shown even when some are refused, so the operator sees them beside the reasons.
    try {
      loadConfig(process.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stderr.write(`shotfarm: ${err.message}\n`);
      process.exitCode = 2;
    }
  });

program
  .command('options')
  .description('the table of capture options of docs/api-clients.md (markdown), from the option table')
  .action(async () => {
    const [{ CAPTURE_OPTIONS }, { optionsMarkdownTable }] = await Promise.all([import('../api/options/create-params.js'), import('../api/options/option-table.js')]);
    process.stdout.write(`${optionsMarkdownTable(CAPTURE_OPTIONS)}\n`);
  });

const printJson = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

/**
 * Runs an operator command where the database is (api/admin/operator-client.ts, loaded on use: through the
 * running service on the embedded database) and prints its answer. A refusal is said on stderr: exit code 2 when an argument
 * is invalid or names nothing (400), else 1.
 */
async function operatorCommand<N extends OperatorCommandName>(name: N, input: OperatorInput<N>, print: (output: OperatorOutput<N>) => void): Promise<void> {
  const { operate } = await import('../api/admin/operator-client.js');
  try {
    print(await operate(config(), name, input));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    process.stderr.write(`shotfarm: ${err.message}\n`);
    process.exitCode = err.status === 400 ? 2 : 1;
  }
}

const keys = program.command('keys').description('API keys');
keys
  .command('create')
  .description('create an API key; a new account unless --company is given')
  .option('--credits <n>', 'opening credits of the new account', integer(0), 0)
  .option('--company <id>', 'add the key to this existing account', integer(1))
  .option('--name <name>', 'a name for the key', 'cli')
  .action((opts: { credits: number; company?: number; name: string }) => operatorCommand('keys.create', opts, printJson));

keys
  .command('list')
  .description('the live API keys of an account (never the secrets: their first characters)')
  .option('--company <id>', 'the account id', integer(1))
  .option('--key <key>', 'the account that owns this API key')
  .action((opts: { company?: number; key?: string }) =>
    operatorCommand('keys.list', opts, (keyList) => {
      for (const k of keyList) printJson({ id: k.id, prefix: k.prefix, name: k.name, user_id: k.user_id, created_at: k.created_at, last_used_at: k.last_used_at });
    }),
  );

keys
  .command('revoke')
  .description('revoke an API key at once, by its id (from keys list); its screenshots keep their history')
  .argument('<id>', 'the key id', integer(1))
  .action((id: number) => operatorCommand('keys.revoke', { id }, printJson));

const users = program.command('users').description('dashboard users');
users
  .command('create')
  .description('a dashboard user (on a new account unless --company is given); prints a one-time link to set its password and log in')
  .requiredOption('--email <address>', "the user's email, their login")
  .option('--admin', "with the admin role (GET /admin/*, the dashboard's admin pages)")
  .option('--company <id>', 'add the user to this existing account', integer(1))
  .option('--name <name>', "the user's name")
  .action((opts: { email: string; admin?: boolean; company?: number; name?: string }) =>
    operatorCommand('users.create', { email: opts.email, admin: opts.admin === true, company: opts.company, name: opts.name }, printJson),
  );

const credits = program.command('credits').description('account credits');
credits
  .command('add')
  .description('grant credits to an account (through the ledger)')
  .requiredOption('--amount <n>', 'credits to add', integer(1))
  .option('--company <id>', 'the account id', integer(1))
  .option('--key <key>', 'the account that owns this API key')
  .option('--reason <text>', 'why, for the ledger', 'cli: credits add')
  .action((opts: { amount: number; company?: number; key?: string; reason: string }) => operatorCommand('credits.add', opts, printJson));

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // The embedded database held by another process: say which (its pid and command), nothing else was opened.
  const { DataDirInUse } = await import('../api/db/data-dir-lock.js');
  if (err instanceof DataDirInUse) {
    process.stderr.write(`shotfarm: ${err.message}\n`);
    process.exit(1);
  }
  // A plugin list that cannot load is a configuration problem: say which, exit 2 like invalid settings.
  if (!(err instanceof PluginRegistryError)) throw err;
  process.stderr.write(`shotfarm: ${err.message}\n`);
  process.exit(2);
}
