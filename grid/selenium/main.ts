import { parseArgs } from 'node:util';
import { localGridOptions } from './local-grid-options.js';
import { SeleniumGrid } from './selenium-grid.js';

/**
 * `make grid`: a local Selenium Grid in the foreground until Ctrl-C, for trying the selenium driver
 * (`shotfarm agent --driver selenium --grid-url URL`). Options: --port N (default: a free port),
 * --max-sessions N (default 2).
 */
function wholeNumber(text: string, option: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`${option} takes a whole number, not ${text}`);
  return Number(text);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' }, 'max-sessions': { type: 'string' } } });
  const overrides: Parameters<typeof localGridOptions>[0] = {};
  if (values.port !== undefined) overrides.port = wholeNumber(values.port, '--port');
  if (values['max-sessions'] !== undefined) overrides.maxSessions = wholeNumber(values['max-sessions'], '--max-sessions');
  console.log('starting Selenium Grid…');
  const grid = await SeleniumGrid.start(localGridOptions(overrides));
  console.log(`Selenium Grid ready at ${grid.url} (Ctrl-C stops it)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log('stopping…');
  await grid.stop();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
