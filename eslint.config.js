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

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: LAYERING_ZONES }],
      // An import the resolver cannot find would slip past the layering rule: make it an error.
      'import-x/no-unresolved': 'error',
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
  // The commander tree hands process.env to loadConfig for every process root; tests build configs from their own env maps.
  { files: ['bin/shotfarm.ts', 'test/**/*.ts'], rules: { 'no-restricted-properties': 'off' } },
  // Tests read decoded JSON answers (any) and use chai's property assertions (`expect(x).to.be.ok`).
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unused-expressions': 'off' } },
);
