import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../../core/config/load-config.js';
import type { AppPlugin } from '../../plugins/contract.js';
import { loadAppPlugins } from '../../plugins/load-plugins.js';
import { AppRegistry, PluginRegistryError } from '../../plugins/registry.js';
import { runCli } from '../support/run-cli.js';

const endpoints = loadConfig({}).apps.endpoints;
const plugin = (type: string, extra: Partial<AppPlugin> = {}): AppPlugin => ({
  type,
  name: `${type} app`,
  description: 'test',
  settingsSchema: z.object({}),
  uploads: false,
  runsOnError: false,
  run: async () => ({}),
  ...extra,
});
const problemsOf = (build: () => unknown): string[] => {
  try {
    build();
  } catch (err) {
    if (err instanceof PluginRegistryError) return err.problems;
    throw err;
  }
  return [];
};

describe('app plugin registry (unit)', () => {
  it('holds the seven built-ins, each with a JSON Schema and its secret fields', async () => {
    const registry = await loadAppPlugins({ external: [], endpoints });
    expect(registry.types()).to.deep.equal(['webhook', 's3', 'slack', 'gdrive', 'dropbox', 'onedrive', 'webcategorize']);
    for (const info of registry.describe()) expect(info.settings_schema.type, info.type).to.equal('object');
    expect(registry.secretFields('webhook')).to.deep.equal(['secret']);
    expect(registry.secretFields('s3')).to.deep.equal(['access_key', 'secret_key']);
    expect(registry.secretFields('webcategorize')).to.deep.equal([]);
    for (const type of ['slack', 'gdrive', 'dropbox', 'onedrive']) expect(registry.secretFields(type), type).to.not.be.empty;
  });

  it('refuses duplicate, empty and malformed types, naming each problem', () => {
    expect(problemsOf(() => new AppRegistry([plugin('a'), plugin('a')]))).to.deep.equal(['"a": type is declared twice']);
    expect(problemsOf(() => new AppRegistry([plugin('')]))).to.deep.equal(['plugin #1: type is empty']);
    expect(problemsOf(() => new AppRegistry([plugin('  ')]))).to.deep.equal(['plugin #1: type is empty']);
    expect(problemsOf(() => new AppRegistry([plugin('Bad Type')]))[0]).to.include('lower case');
    expect(problemsOf(() => new AppRegistry([plugin('x', { name: '' }), plugin('y', { settingsSchema: {} as never, run: 1 as never })]))).to.deep.equal([
      '"x": name is empty',
      '"y": settingsSchema is not a zod object schema',
      '"y": run is not a function',
    ]);
  });

  it('loads external plugins from paths given in SHOTFARM_PLUGINS (the example plugin), after the built-ins', async () => {
    const registry = await loadAppPlugins({ external: ['./dist/plugins/examples/webdav-app.js'], endpoints });
    expect(registry.types().at(-1)).to.equal('webdav');
    expect(registry.secretFields('webdav')).to.deep.equal(['password']);
  });

  it('fails to load a duplicate type, a missing module or a module without a plugin', async () => {
    const failure = async (external: string[]): Promise<string> => {
      try {
        await loadAppPlugins({ external, endpoints });
      } catch (err) {
        if (err instanceof PluginRegistryError) return err.message;
        throw err;
      }
      return 'loaded';
    };
    expect(await failure(['./test/fixtures/plugins/duplicate-webhook.mjs'])).to.include('"webhook": type is declared twice');
    expect(await failure(['./no/such/plugin.js'])).to.include('SHOTFARM_PLUGINS: ./no/such/plugin.js');
    expect(await failure(['shotfarm-no-such-package'])).to.include('SHOTFARM_PLUGINS: shotfarm-no-such-package');
    expect(await failure(['./test/fixtures/plugins/no-export.mjs'])).to.include('exports neither `default` nor `plugin`');
  });

  it('`shotfarm api` stops at start-up with exit code 2 and the problem when a plugin cannot load', async function () {
    this.timeout(60_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-plugin-cli-'));
    const run = await runCli(['api'], { SHOTFARM_PLUGINS: './test/fixtures/plugins/duplicate-webhook.mjs', PORT: '0', SHOTFARM_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }).finally(() =>
      fs.rmSync(dataDir, { recursive: true, force: true }),
    );
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('invalid app plugins').and.include('"webhook": type is declared twice');
  });
});
