import type { WebDriver } from 'selenium-webdriver';
import type { BrowserName, CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserHandle } from '../../core/contracts/browser-driver.js';
import { runCapture, type CaptureServices } from './capture-job.js';
import { gridReady } from './grid-status.js';
import { closeSession } from './open-session.js';

/**
 * Chrome on a Selenium Grid. Nothing runs between captures: each capture starts its own session (a
 * fresh browser with a fresh profile) and quits it, so the handle is the grid's address plus what the
 * captures share. Healthy means the grid says it is ready to start sessions.
 */
export class SeleniumHandle implements BrowserHandle {
  readonly browser: BrowserName = 'chrome';
  private closed = false;
  private readonly sessions = new Set<WebDriver>();

  constructor(
    private readonly gridUrl: string,
    private readonly binary: string | undefined,
    readonly info: string,
    private readonly services: CaptureServices,
  ) {}

  capture(spec: CaptureSpec, signal: AbortSignal): Promise<CaptureOutput> {
    if (this.closed) return Promise.reject(new Error('this selenium handle is closed'));
    if (spec.browser !== this.browser) return Promise.reject(new Error(`this handle runs chrome, the spec asks for ${spec.browser}`));
    return runCapture(this.gridUrl, this.binary, spec, signal, this.services, this.sessions);
  }

  async healthy(): Promise<boolean> {
    return !this.closed && (await gridReady(this.gridUrl));
  }

  /** Ends the sessions of captures still running; the grid itself is not ours to stop. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.sessions].map((driver) => closeSession(driver)));
  }
}
