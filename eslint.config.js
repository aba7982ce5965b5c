// Lint for shotfarm: typescript-eslint's recommended rules plus the import layering of ARCHITECTURE.md.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The layering of ../shared/ARCHITECTURE.md, as zones: files under `target` may not import from `from`.
 * bin/ holds the process entries (thin composition roots) and may import every folder; nothing imports bin/.
 */
export const LAYERING_ZONES = [
  { target: './core', from: ['./bin', './drivers', './grid', './plugins', './node-agent', './api', './test'], message: 'core/ imports nothing of its siblings.' },
  { target: './drivers', from: ['./bin', './grid', './plugins', './node-agent', './api', './test'], message: 'drivers/ may import only core/.' },
  { target: './grid', from: ['./bin', './drivers', './plugins', './node-agent', './api', './test'], message: 'grid/ may import only core/.' },
  { target: './plugins', from: ['./bin', './drivers', './grid', './node-agent', './api', './test'], message: 'plugins/ may import only core/.' },
  {
    target: './node-agent',
    from: ['./bin', './plugins', './api', './test'],
    message: 'node-agent/ may import core/, drivers/ and grid/: never the control plane (an agent holds no database credentials).',
  },
  { target: './api', from: ['./bin', './drivers', './node-agent', './test'], message: 'api/ is the control plane: it may import core/, grid/ and plugins/ (bin/serve.ts composes it with an agent).' },
  { target: './bin', from: ['./test'], message: 'bin/ holds the process entries: tests are not part of them.' },
];

/**
 * The control plane's features (api/<feature>/: routes, parameters, response shapes, service, store) and what
 * each offers the others: its named services, listed here once, in the spirit of Playwright's per-folder
 * DEPS.list. Everything else in a feature's folder is its own. Its response shapes (`<feature>-shapes.ts`) are
 * public too: answers nest each other (a crawl lists Screenshots) and the dashboard types its pages with them.
 * accounts/ is the floor every feature stands on (companies, keys, the ledger): all of it is open to them.
 */
export const FEATURE_SERVICES = {
  screenshots: [
    'screenshot-service.ts', // create, list, get, delete: what batches, crawls and monitors create through
    'screenshot-records.ts', // the records module: the one writer (end, cancel, scrub) the farm and features call
    'screenshot-record.ts', // the record's types and its answer
    'screenshot-reads.ts', // the table's read model for every other feature
    'screenshot-store.ts', // a record with its app runs (the app runner reads them)
    'record-draft.ts', // the draft a stored record was created from (a batch retry)
  ],
  batches: ['batch-record.ts'], // the Batch answer: the MCP tools answer a batch as GET /batch/info does
  crawls: [],
  monitors: [
    'monitor-record.ts', // the Monitor answer: the MCP tool monitor_page answers it as POST /monitor/create does
    'monitor-params.ts', // the monitor's fields: monitor_page's input schema derives from them
  ],
  mcp: [],
  apps: ['app-event-emitter.ts', 'batch-hosting.ts'],
  billing: ['billing.ts', 'plan-usage.ts', 'plan-catalog.ts'],
  auth: ['auth-service.ts', 'auth-params.ts', 'session-cookie.ts', 'user-session.ts', 'operator-users.ts'],
  accounts: null,
  admin: [],
  retrieval: ['file-access.ts', 'image-links.ts', 'signed-file-links.ts', 'stored-content.ts', 'content-disposition.ts', 'thumbnail-render.ts', 'link-token.ts'],
  farm: ['farm-dispatcher.ts', 'result-recorder.ts', 'browser-activity.ts'],
  render: [], // GET|POST /screenshot/render: one more way to create a record (through screenshots' service)
};
const FEATURES = Object.keys(FEATURE_SERVICES);
/** The composition of the control plane: the only files of api/ that import every feature (and their routes). */
const COMPOSITION = ['./api/app.ts', './api/route-table.ts', './api/control-plane.ts', './api/api-adapters.ts', './api/app-deps.ts'];
const feature = (f) => `./api/${f}`;
const shapesOf = (f) => `./${f.replace(/s$/, '')}-shapes.ts`;

/**
 * The zones inside api/: options/ (the option table, request parsing) and db/ (connect, migrate, migrations)
 * import nothing else of api/, so a migration keeps its own copy of what it needs; http/ (middleware, route
 * descriptors, OpenAPI) imports them and the handlers' dependency types (app-deps.ts); a feature imports http/,
 * options/, db/, accounts/ and the other features' named services; the dashboard's sources import only shapes.
 */
// (A glob zone's exceptions are matched against absolute paths, hence import.meta.dirname.)
export const FEATURE_ZONES = [
  {
    target: './api/options',
    from: ['./api/*/**', './api/*.ts'],
    except: [`${import.meta.dirname}/api/options/**`],
    message: 'api/options/ (the option table, request parsing) imports nothing else of api/.',
  },
  {
    target: './api/db',
    from: ['./api/*/**', './api/*.ts'],
    except: [`${import.meta.dirname}/api/db/**`],
    message: 'api/db/ imports nothing else of api/: a migration keeps its own copy of what it needs.',
  },
  {
    target: './api/http',
    from: [...FEATURES.map(feature), './api/dashboard', ...COMPOSITION.filter((f) => f !== './api/app-deps.ts')],
    message: 'api/http/ (middleware, route descriptors, OpenAPI) imports no feature: the handlers get their services through RouteDeps (api/app-deps.ts).',
  },
  ...FEATURES.flatMap((target) => [
    {
      target: feature(target),
      from: [...COMPOSITION, './api/dashboard'],
      message: `api/${target}/ is a feature: the composition (app.ts, route-table.ts, control-plane.ts) imports it, not the other way.`,
    },
    ...FEATURES.filter((other) => other !== target && FEATURE_SERVICES[other] !== null).map((other) => ({
      target: feature(target),
      from: feature(other),
      except: [...FEATURE_SERVICES[other].map((f) => `./${f}`), shapesOf(other)],
      message: `api/${target}/ reaches api/${other}/ only through its named services (${[...FEATURE_SERVICES[other], shapesOf(other).slice(2)].join(', ')}): FEATURE_SERVICES in eslint.config.js.`,
    })),
  ]),
  {
    target: './api/dashboard/ui',
    from: ['./api/!(dashboard)/**/!(*-shapes).ts', './api/*.ts'],
    message: "The dashboard's sources import only the features' response shapes (`import type` from <feature>-shapes.ts).",
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      // The modules import-x reads to follow imports (no-cycle): TypeScript's, parsed by typescript-eslint.
      // Without these it reads .js only, and no-cycle would pass every .ts file unread.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...LAYERING_ZONES, ...FEATURE_ZONES] }],
      // An import the resolver cannot find would slip past the layering rule: make it an error.
      // The MCP SDK's documented subpaths (`@modelcontextprotocol/sdk/server/stdio.js`) come through its
      // wildcard export, whose `types` condition maps `x.js` to `x.js.d.ts`: the resolver takes that literally
      // and fails, while tsc resolves them (and checks every import of them).
      'import-x/no-unresolved': ['error', { ignore: ['^@modelcontextprotocol/sdk/'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only core/config reads the environment; take settings from Config.' }],
    },
  },
  // Type-checked rules that catch real bugs: a promise nobody awaits (its rejection is lost, or it races what
  // follows), a promise where a callback's result is ignored (an async event handler whose error vanishes),
  // awaiting what is no promise, for-in over an array, throwing what is no Error.
  {
    files: ['**/*.ts'],
    // The dashboard's Vite config is outside every tsconfig: the default project types it.
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['api/dashboard/ui/vite.config.ts'] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
    },
  },
  // No import circle in core/ or api/ (type-only imports aside: they vanish from the built files).
  { files: ['core/**/*.ts', 'api/**/*.ts'], rules: { 'import-x/no-cycle': 'error' } },
  // The commander tree hands process.env to loadConfig for every process root; tests build configs from their own env maps.
  { files: ['bin/shotfarm.ts', 'test/**/*.ts'], rules: { 'no-restricted-properties': 'off' } },
  // Tests read decoded JSON answers (any) and use chai's property assertions (`expect(x).to.be.ok`).
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unused-expressions': 'off' } },
);
