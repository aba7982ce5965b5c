import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { repoPath } from '../support/repo-path.js';

/**
 * The screenshots table has one owner: the records module (api/screenshots/screenshot-records.ts, the one
 * writer) and the read models beside it (screenshot-reads.ts for the other features, screenshot-store.ts for the
 * screenshot routes). Every other file reads a record through them, so the table's columns are met in one folder.
 * Migrations change the table itself and keep their own copy of what they need.
 */
const OWNERS = ['api/screenshots/', 'api/db/migrations/'];
/** The repository's root (repoPath('api') would find dist/api, the built files, first). */
const ROOT = path.dirname(repoPath('package.json'));
/** The table named in a query: db('screenshots'), a join or a subquery 'screenshots as s', raw SQL `from/join screenshots`. */
const NAMES_THE_TABLE = /['"`]screenshots(\s+as\s+\w+)?['"`]|\b(from|join)\s+screenshots\b/i;

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'dashboard' ? [] : sources(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

describe('the screenshots table is read through the records module', () => {
  it('no file of the control plane or its commands outside api/screenshots/ names it in a query', () => {
    const files = [...sources('api'), ...sources('bin')];
    // The walk sees the sources: the owner's own reads are found by the same pattern.
    expect(files.filter((f) => f.startsWith('api/screenshots/') && NAMES_THE_TABLE.test(fs.readFileSync(path.join(ROOT, f), 'utf8')))).to.include('api/screenshots/screenshot-reads.ts');
    const readers = files
      .filter((f) => !OWNERS.some((o) => f.startsWith(o)))
      .flatMap((f) =>
        fs
          .readFileSync(path.join(ROOT, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${f}:${i + 1}`, line }))
          .filter(({ line }) => NAMES_THE_TABLE.test(line) && !/^\s*(\/\/|\*)/.test(line)),
      )
      .map(({ where, line }) => `${where}: ${line.trim()}`);
    expect(readers).to.deep.equal([]);
  });
});
