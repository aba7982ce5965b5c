// Builds the dashboard (plain TypeScript, no framework) into api/dashboard/public, which is committed:
// the control plane serves those files as they are, so a deploy needs no build step. `make dashboard` runs this.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { BUILD_INFO_FILE, uiSourceHash } from '../ui-source-hash.js';

const uiDir = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: uiDir,
  base: '/',
  // Vite's cache stays out of the hashed sources and out of node_modules (which may be shared): dist/ is build output.
  cacheDir: fileURLToPath(new URL('../../../dist/.vite-dashboard', import.meta.url)),
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../public', import.meta.url)),
    emptyOutDir: true,
    // Every browser that runs the dashboard supports modulepreload; the polyfill would only add code.
    modulePreload: { polyfill: false },
    // Files, never data: URLs, so the Content-Security-Policy can stay 'self'.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
  // `npx vite --config api/dashboard/ui/vite.config.ts` serves the sources with live reload; the API is the
  // service `make run` starts on :8080.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  plugins: [
    {
      name: 'shotfarm-build-info',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: BUILD_INFO_FILE, source: `${JSON.stringify({ ui_sources_sha256: uiSourceHash(uiDir) }, null, 2)}\n` });
      },
    },
  ],
});
