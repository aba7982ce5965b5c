import path from 'node:path';
import { expect } from 'chai';
import { ESLint } from 'eslint';

/** Proves the layering rule of ARCHITECTURE.md fires: a lint rule that never fires would prove nothing. */
describe('import layering lint rule', function () {
  this.timeout(120_000);
  const root = path.resolve('.');
  const eslint = new ESLint({ cwd: root });
  const lint = async (file: string, importPath: string): Promise<string[]> => {
    const [result] = await eslint.lintText(`import * as m from '${importPath}';\nexport const x = m;\n`, { filePath: path.join(root, file) });
    return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
  };

  const forbidden: [string, string][] = [
    ['core/x.ts', '../api/app.js'],
    ['core/request/x.ts', '../../api/app.js'],
    ['api/x.ts', '../test/support/databases.js'],
    ['api/routes/x.ts', '../../test/support/databases.js'],
    ['node-agent/x.ts', '../core/db/connect.js'],
    ['node-agent/x.ts', '../api/app.js'],
  ];
  for (const [file, importPath] of forbidden) {
    it(`refuses ${importPath} in ${file}`, async () => {
      expect(await lint(file, importPath)).to.include('import-x/no-restricted-paths');
    });
  }

  const allowed: [string, string][] = [
    ['api/x.ts', '../core/errors.js'],
    ['api/cli.ts', '../core/errors.js'],
    ['node-agent/x.ts', '../core/errors.js'],
    ['test/x.ts', '../api/app.js'],
  ];
  for (const [file, importPath] of allowed) {
    it(`allows ${importPath} in ${file}`, async () => {
      expect(await lint(file, importPath)).to.deep.equal([]);
    });
  }

  it('refuses an import it cannot resolve (it would slip past the layering check)', async () => {
    expect(await lint('core/x.ts', './no-such-module.js')).to.include('import-x/no-unresolved');
  });
});
