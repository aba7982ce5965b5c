import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { BUILD_INFO_FILE, uiSourceHash } from '../../api/dashboard/ui-source-hash.js';
import { repoPath } from '../support/repo-path.js';

/**
 * The built dashboard is committed (deploys need no build step), so it must be the build of the sources
 * committed with it: a source change without `make dashboard` fails here.
 */
describe('committed dashboard build', () => {
  const publicDir = repoPath('api/dashboard/public');

  it('was built from the dashboard sources as they are (run `make dashboard` after changing api/dashboard/ui)', () => {
    const info = JSON.parse(readFileSync(join(publicDir, BUILD_INFO_FILE), 'utf8')) as { ui_sources_sha256: string };
    expect(info.ui_sources_sha256, 'api/dashboard/public is older than api/dashboard/ui: run `make dashboard` and commit the result').to.equal(uiSourceHash(repoPath('api/dashboard/ui')));
  });

  it('has an index.html whose scripts and stylesheets are files of the build', () => {
    const index = readFileSync(join(publicDir, 'index.html'), 'utf8');
    const refs = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(
      refs.some((r) => r.endsWith('.js')),
      index,
    ).to.equal(true);
    for (const ref of refs) expect(existsSync(join(publicDir, ref)), ref).to.equal(true);
    // The Content-Security-Policy allows no inline script.
    expect(index).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  // Vite builds without checking types; the dashboard's record types are the API's response shapes
  // (api/dashboard/ui/src/records.ts imports them), so an answer that changes shape must fail somewhere.
  it("type-checks against the features' response shapes it imports (tsc -p api/dashboard/ui/tsconfig.json)", async function () {
    this.timeout(120_000);
    const root = dirname(repoPath('package.json'));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', 'api/dashboard/ui/tsconfig.json'], { cwd: root }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(result).to.equal('');
  });
});
