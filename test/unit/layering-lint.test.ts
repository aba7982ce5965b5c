import path from 'node:path';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/** Proves the layering rule of ARCHITECTURE.md fires: a lint rule that never fires would prove nothing. */
describe('import layering lint rule', function () {
  this.timeout(120_000);
  const root = path.resolve('.');
  // The files linted here do not exist, so no TypeScript project knows them: type-aware rules are off for them.
  const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
  const lint = async (file: string, importPath: string): Promise<string[]> => {
    const [result] = await eslint.lintText(`import * as m from '${importPath}';\nexport const x = m;\n`, { filePath: path.join(root, file) });
    return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
  };

  const forbidden: [string, string][] = [
    ['core/x.ts', '../api/app.js'],
    ['core/config/x.ts', '../../api/app.js'],
    ['core/x.ts', '../bin/shotfarm.js'],
    ['api/x.ts', '../test/support/databases.js'],
    ['api/screenshots/x.ts', '../../test/support/databases.js'],
    ['api/x.ts', '../drivers/driver-adapters.js'],
    ['api/x.ts', '../node-agent/create-agent.js'],
    ['api/control-plane.ts', '../bin/serve.js'],
    ['node-agent/x.ts', '../api/db/connect.js'],
    ['node-agent/x.ts', '../api/app.js'],
  ];
  for (const [file, importPath] of forbidden) {
    it(`refuses ${importPath} in ${file}`, async () => {
      expect(await lint(file, importPath)).to.include('import-x/no-restricted-paths');
    });
  }

  const allowed: [string, string][] = [
    ['api/x.ts', '../core/errors.js'],
    ['bin/serve.ts', '../api/app.js'],
    ['bin/x.ts', '../drivers/driver-adapters.js'],
    ['bin/x.ts', '../node-agent/create-agent.js'],
    ['node-agent/x.ts', '../core/errors.js'],
    ['test/x.ts', '../api/app.js'],
  ];
  for (const [file, importPath] of allowed) {
    it(`allows ${importPath} in ${file}`, async () => {
      expect(await lint(file, importPath)).to.deep.equal([]);
    });
  }

  // Inside api/: a feature reaches another only through its named services (FEATURE_SERVICES), its routes only
  // through api/route-table.ts; http/, options/ and db/ import no feature; the dashboard's sources only shapes.
  const featureForbidden: [string, string][] = [
    ['api/batches/x.ts', '../screenshots/screenshot-columns.js'],
    ['api/monitors/x.ts', '../batches/batch-routes.js'],
    ['api/crawls/x.ts', '../route-table.js'],
    ['api/http/x.ts', '../batches/batch-service.js'],
    ['api/options/x.ts', '../http/state.js'],
    ['api/db/migrations/x.ts', '../../options/create-params.js'],
    ['api/dashboard/ui/src/x.ts', '../../../batches/batch-service.js'],
  ];
  for (const [file, importPath] of featureForbidden) {
    it(`refuses ${importPath} in ${file}`, async () => {
      expect(await lint(file, importPath)).to.include('import-x/no-restricted-paths');
    });
  }

  const featureAllowed: [string, string][] = [
    ['api/batches/x.ts', '../screenshots/screenshot-service.js'],
    ['api/crawls/x.ts', '../screenshots/screenshot-shapes.js'],
    ['api/crawls/x.ts', '../accounts/ledger.js'],
    ['api/http/x.ts', '../options/read-params.js'],
    ['api/route-table.ts', './batches/batch-routes.js'],
    ['api/dashboard/ui/src/x.ts', '../../../batches/batch-shapes.js'],
  ];
  for (const [file, importPath] of featureAllowed) {
    it(`allows ${importPath} in ${file}`, async () => {
      expect(await lint(file, importPath)).to.deep.equal([]);
    });
  }

  it('refuses an import circle in api/ (read-params.ts importing the router, which imports read-params.ts)', async () => {
    expect(await lint('api/options/read-params.ts', '../http/mount-routes.js')).to.include('import-x/no-cycle');
  });

  it('refuses an import it cannot resolve (it would slip past the layering check)', async () => {
    expect(await lint('core/x.ts', './no-such-module.js')).to.include('import-x/no-unresolved');
  });
});

/** The type-checked rules of eslint.config.js fire on the bugs they are there for. */
describe('type-checked lint rules', function () {
  this.timeout(180_000);
  const root = path.resolve('.');
  const eslint = new ESLint({ cwd: root });
  // Linted as the text of a file the TypeScript project knows, so the rules have its types.
  const rulesFiredOn = async (code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, 'core/errors.ts') });
    return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
  };

  it('refuses a promise nobody awaits, and an async callback where a void one is expected', async () => {
    const fired = await rulesFiredOn(
      [
        'export async function save(): Promise<void> {}',
        'save();',
        "import { EventEmitter } from 'node:events';",
        "new EventEmitter().on('x', () => undefined);",
        'export const later = (f: () => void): void => f();',
        'later(async () => { await save(); });',
        '',
      ].join('\n'),
    );
    expect(fired).to.include('@typescript-eslint/no-floating-promises');
    expect(fired).to.include('@typescript-eslint/no-misused-promises');
  });
});
