import type { WebDriver } from 'selenium-webdriver';
import type { CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import { runCapturePipeline } from '../shared/capture-pipeline.js';
import type { SeleniumCaptureServices } from './capture-services.js';
import { sessionCapabilities } from './capabilities.js';
import { openSession } from './open-session.js';
import { SeleniumSession } from './selenium-session.js';

/**
 * One capture in a fresh WebDriver session on the grid, quit in `finally` whatever happens: the flow of
 * drivers/shared/capture-pipeline.ts, with the phases, deadline rules and warning sentences of the
 * Playwright driver; only the abort signal makes it throw.
 */
export async function runSeleniumCapture(
  gridUrl: string,
  binary: string | undefined,
  spec: CaptureSpec,
  signal: AbortSignal,
  services: SeleniumCaptureServices,
  /** the handle's open sessions, so that closing the handle can end them */
  sessions: Set<WebDriver>,
): Promise<CaptureOutput> {
  const open = async (): Promise<SeleniumSession> =>
    new SeleniumSession(await openSession(gridUrl, sessionCapabilities(spec, services.chromeFlags, binary)), spec, services, sessions);
  try {
    return await runCapturePipeline(spec, signal, { defaultMaxWaitMs: services.defaultMaxWaitMs, settleCapMs: services.settleCapMs, warnings: [] }, open);
  } catch (error) {
    // Calls fail in many ways once the session is gone; the job's cancellation is the reason to report.
    signal.throwIfAborted();
    throw error;
  }
}
