import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { pluginProjectLock } from '../support/plugin-project.js';
import { until } from '../support/wait-until.js';

const run = promisify(execFile);
const REPO = path.resolve('.');
const NPM_FLAGS = ['--offline', '--no-audit', '--no-fund', '--no-update-notifier'];

/** The outside plugin: what docs/plugin-authors.md tells an author to write, importing only the published SDK. */
const PLUGIN_TS = `import { z } from 'zod';
import { AppRunError, defineAppPlugin, secret, type AppOutput } from 'shotfarm/plugin-sdk';

export default defineAppPlugin({
  type: 'shout',
  name: 'Shout',
  description: 'Counts the outputs of a screenshot and says so loudly.',
  settingsSchema: z.object({ prefix: z.string().max(20), token: secret(z.string()).optional() }),
  uploads: false,
  runsOnError: false,
  async run(ctx): Promise<AppOutput> {
    ctx.signal.throwIfAborted();
    const files = ctx.files.list();
    if (files.length === 0) throw new AppRunError('nothing to count', { retryable: false });
    // ctx.settings is typed from the schema: prefix is a string.
    return { output_url: '', output_data: { said: \`\${ctx.settings.prefix.toUpperCase()} \${files.length} \${ctx.screenshot.url}\` } };
  },
});
`;

/** Checks the plugin with the SDK's contract kit from the installed package, as the author's test would. */
const CHECK_TS = `import { checkAppPlugin } from 'shotfarm/plugin-sdk';
import plugin from './plugin.js';

const { output } = await checkAppPlugin(plugin, { settings: { prefix: 'hey' }, invalidSettings: [{ settings: {}, why: 'prefix missing' }] });
process.stdout.write(JSON.stringify(output));
`;

/** A mistake the declarations must catch: a setting the schema does not have (ctx.settings is typed from it). */
const WRONG_TS = `import { z } from 'zod';
import { defineAppPlugin } from 'shotfarm/plugin-sdk';

export default defineAppPlugin({
  type: 'wrong', name: 'Wrong', description: 'd', settingsSchema: z.object({ prefix: z.string() }), uploads: false, runsOnError: false,
  async run(ctx) {
    return { output_url: ctx.settings.colour };
  },
});
`;

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', types: ['node'], skipLibCheck: false }, include: ['src'] };

/**
 * The plugin SDK as an outside author gets it: `npm pack` of this repository, installed from the tarball
 * into a project of its own (offline, from npm's cache), compiled with tsc against the emitted
 * declarations, and run; the same installed package also starts the service (its runtime files are packed).
 */
describe('plugin SDK package: npm pack, install in an outside project, compile against it', function () {
  this.timeout(600_000);
  let dir: string;
  let project: string;
  let tarball: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-sdk-pack-'));
    project = path.join(dir, 'my-plugin');
    // The declarations come from their own build (tsconfig.sdk.json), as `npm pack`'s prepack runs it.
    await run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.sdk.json'], { cwd: REPO });
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, ...NPM_FLAGS], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = info!.filename;
    expect(info!.files.map((f) => f.path)).to.include.members([
      'dist/plugins/plugin-sdk.d.ts',
      'dist/plugins/plugin-sdk.js',
      'drivers/brave/filters/shotfarm-ads-trackers.txt',
      'api/dashboard/public/index.html',
      'dist/bin/shotfarm.js',
    ]);
    expect(
      info!.files.filter((f) => f.path.startsWith('dist/test/') || f.path.endsWith('.map')),
      'no tests or source maps',
    ).to.deep.equal([]);

    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; overrides?: Record<string, unknown> };
    const manifest = {
      name: 'my-plugin',
      version: '1.0.0',
      type: 'module',
      private: true,
      dependencies: { shotfarm: `file:../${tarball}`, zod: pkg.dependencies.zod as string },
      devDependencies: { typescript: pkg.devDependencies.typescript as string, '@types/node': pkg.devDependencies['@types/node'] as string },
      // shotfarm's own overrides, as a project depending on it from this machine's registry needs them: npm applies
      // overrides of the root project only, and the registry here lacks a version a dependency pins (package.json).
      ...(pkg.overrides ? { overrides: pkg.overrides } : {}),
    };
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify(manifest, null, 2));
    fs.writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify(pluginProjectLock(REPO, `../${tarball}`, manifest), null, 2));
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    fs.writeFileSync(path.join(project, 'src/plugin.ts'), PLUGIN_TS);
    fs.writeFileSync(path.join(project, 'src/check.ts'), CHECK_TS);
    await run('npm', ['ci', ...NPM_FLAGS], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const tsc = (args: string[]): Promise<{ code: number; out: string }> =>
    run(process.execPath, [path.join(project, 'node_modules/typescript/bin/tsc'), ...args], { cwd: project }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );

  it('the plugin compiles with tsc against the installed declarations, and passes the contract kit run from the installed package', async () => {
    const compiled = await tsc(['-p', '.']);
    expect(compiled, compiled.out).to.deep.equal({ code: 0, out: '' });
    const checked = await run(process.execPath, ['dist/check.js'], { cwd: project });
    expect(JSON.parse(checked.stdout)).to.deep.equal({ output_url: '', output_data: { said: 'HEY 2 https://www.example.com/menu?day=1' } });
  });

  it('the declarations are real: reading a setting the schema lacks does not compile', async () => {
    fs.writeFileSync(path.join(project, 'src/wrong.ts'), WRONG_TS);
    try {
      const compiled = await tsc(['-p', '.', '--noEmit']);
      expect(compiled.code).to.not.equal(0);
      expect(compiled.out).to.match(/src\/wrong\.ts.*Property 'colour' does not exist/);
    } finally {
      fs.rmSync(path.join(project, 'src/wrong.ts'));
    }
  });

  it('the installed package runs: the shotfarm bin answers --version and `serve` starts with its dashboard and filter list', async () => {
    const bin = path.join(project, 'node_modules/.bin/shotfarm');
    const version = await run(bin, ['--version'], { cwd: project });
    expect(version.stdout).to.equal(`${(JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version}\n`);
    const dataDir = path.join(dir, 'data');
    const port = 18951;
    const child = spawn(bin, ['serve'], {
      cwd: project,
      stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', SHOTFARM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '1' },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      // The drivers look for the packed filter list when they are made: a package without it never gets ready.
      await until('the installed service to be ready', async () => child.exitCode === null && (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200, 120_000);
      const dashboard = await fetch(`http://127.0.0.1:${port}/`);
      expect(dashboard.status).to.equal(200);
      expect(await dashboard.text()).to.include('<div id="app">');
    } finally {
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
    }
  });
});
