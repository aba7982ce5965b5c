import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config/config.js';
import { DEFAULT_PRICING } from '../core/pricing.js';
import { buildCreateRequest } from '../api/options/create-request.js';
import { parseQuery } from '../api/options/query-input.js';
import { createLogger, type Logger } from '../core/logger.js';
import { createEgressGuard } from '../node-agent/create-agent.js';
import { captureGuarded } from '../node-agent/egress/guarded-capture.js';
import { registerAdapters } from '../core/di/adapters.js';
import { newContainer, TOKENS } from '../core/di/tokens.js';
import { driverAdapters } from '../drivers/driver-adapters.js';
import { captureVerdict } from '../node-agent/outcome.js';

export interface OneOffOptions {
  /** where the image goes; other outputs go beside it with their own extension */
  output: string;
  /** every other create option, as the API takes them (`browser`, `size`, `pdf`, …) */
  options: Record<string, string>;
}

/** Beyond the page's own deadline, encoding and writing get this long before the command gives up. */
const MARGIN_MS = 60_000;

/**
 * `shotfarm capture URL`: one capture on this machine with the same engine the farm uses, so an operator
 * can check a new browser machine. Outputs are written to files; the summary goes to stdout.
 * Returns the exit code: 0 when the capture finished, 1 when it ended in error.
 */
export async function captureOnce(config: Config, url: string, opts: OneOffOptions, print: (line: string) => void, log: Logger = createLogger('silent')): Promise<number> {
  const query = new URLSearchParams({ ...opts.options, url }).toString();
  // Validation is the API's own: a bad option is refused with the same message the API gives.
  const [draft] = buildCreateRequest(parseQuery(query), { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 0, maxCapturePixels: config.farm.maxCapturePixels }).drafts;
  if (!draft) throw new Error('no capture to run');
  const spec = draft.spec;
  // The same driver registration as an agent's: SHOTFARM_DRIVER (--driver) picks it.
  const container = newContainer();
  const adapters = await registerAdapters(container, config, driverAdapters, log);
  const driver = container.resolve(TOKENS.BrowserDriver);
  adapters.assertResolved();
  if (!driver.browsers().includes(spec.browser)) throw new Error(`the ${driver.kind} driver cannot run ${spec.browser}`);
  // The same SSRF guard as the farm's agents: SHOTFARM_ALLOW_PRIVATE_TARGETS decides here too.
  const guard = createEgressGuard(config, log);
  // The guard listens before the browser starts: it is the browser's own proxy too.
  await guard?.start();
  const handle = await driver.launch(spec.browser, {
    ...(guard ? { egressProxy: guard.browserProxy() } : {}),
    ...(spec.browser === 'brave' && config.agent.bravePath ? { executablePath: config.agent.bravePath } : {}),
    ...(spec.browser === 'firefox' && spec.dark ? { dark: true } : {}),
    ...(config.agent.seleniumGridUrl ? { gridUrl: config.agent.seleniumGridUrl } : {}),
  });
  try {
    const deadline = (spec.maxWait || config.farm.captureTimeoutSeconds) * 1000 + MARGIN_MS;
    const { output, pageFailure } = await captureGuarded(guard, spec, null, (s) => handle.capture(s, AbortSignal.timeout(deadline)));
    const verdict = captureVerdict(output, pageFailure);
    const base = opts.output.replace(/\.png$/i, '');
    const written: string[] = [];
    const write = (file: string, data: Buffer | string): void => {
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      fs.writeFileSync(file, data);
      written.push(file);
    };
    output.images.forEach((img, i) => write(i === 0 ? `${base}.png` : `${base}-${i + 1}.png`, img));
    if (output.html !== null) write(`${base}.html`, output.html);
    if (output.pdf !== null) write(`${base}.pdf`, output.pdf);
    if (output.video !== null) write(`${base}.${output.video.format}`, output.video.data);
    print(
      JSON.stringify(
        {
          status: verdict.status,
          ...(verdict.status === 'error' ? { error: verdict.error, error_cause: verdict.cause } : {}),
          final_url: output.finalUrl,
          response_code: output.responseCode,
          browser: handle.info,
          warnings: output.warnings,
          blank: output.blank,
          files: written,
          timings: output.timings,
        },
        null,
        2,
      ),
    );
    return verdict.status === 'finished' ? 0 : 1;
  } finally {
    await handle.close();
    await guard?.stop();
  }
}
