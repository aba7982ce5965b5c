import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

/**
 * The process roots of bin/ load what their process needs and no more: `shotfarm agent` holds no database
 * credentials and never loads the control plane (Koa, knex, any module of api/). Read from the built files
 * (dist/), the way Node loads them: a static import is loaded with the file that names it, an `import()`
 * only when that line runs.
 */
const DIST = fileURLToPath(new URL('../../', import.meta.url));
const STATIC = /^\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The files and packages a built file loads, following static imports, and dynamic ones when `dynamic` says so. */
function closure(entry: string, dynamic: (file: string) => boolean): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = fs.readFileSync(file, 'utf8');
    const specs = [...source.matchAll(STATIC)].map((m) => m[1] as string);
    if (dynamic(file)) specs.push(...[...source.matchAll(DYNAMIC)].map((m) => m[1] as string));
    for (const spec of specs) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
    }
  };
  visit(path.join(DIST, entry));
  return { files, packages };
}

const repoPaths = (files: Set<string>): string[] => [...files].map((f) => path.relative(DIST, f).split(path.sep).join('/'));
const CONTROL_PLANE_PACKAGES = ['koa', '@koa/router', 'knex', 'knex-pglite', 'pg', '@electric-sql/pglite'];

describe('process roots (bin/)', () => {
  // `shotfarm agent`: the commander tree as Node loads it, then the agent's root and all it may load.
  const tree = closure('bin/shotfarm.js', () => false);
  const agent = closure('bin/agent.js', () => true);

  it('shotfarm agent loads no module of api/ (the commander tree loads every other root on use)', () => {
    expect([...repoPaths(tree.files), ...repoPaths(agent.files)].filter((f) => f.startsWith('api/'))).to.deep.equal([]);
  });

  it('shotfarm agent loads neither Koa nor knex nor a database driver', () => {
    expect([...tree.packages, ...agent.packages].filter((p) => CONTROL_PLANE_PACKAGES.includes(p))).to.deep.equal([]);
  });

  it('shotfarm mcp (a client of the HTTP API) loads neither Koa nor knex nor a database driver', () => {
    const mcp = closure('bin/mcp.js', () => true);
    expect([...mcp.packages].filter((p) => CONTROL_PLANE_PACKAGES.includes(p))).to.deep.equal([]);
    expect([...mcp.packages]).to.include('@modelcontextprotocol/sdk');
  });

  it('the walk sees what it looks for: the agent reaches the drivers, serve reaches Koa and knex', () => {
    expect(repoPaths(agent.files)).to.include.members(['node-agent/create-agent.js', 'drivers/driver-adapters.js']);
    const serve = closure('bin/serve.js', () => false);
    expect([...serve.packages]).to.include.members(['koa', 'knex']);
    expect(repoPaths(serve.files)).to.include('api/control-plane.js');
  });
});
