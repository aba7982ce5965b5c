import type { Page } from 'playwright-core';
import type { BlockedCounts, CaptureSpec, PdfSpec, VideoSpec } from '../../core/capture-spec.js';
import type { CaptureLimits, PngEncoding } from '../../core/contracts/browser-driver.js';
import type { VideoEncoder } from '../video/video-encoder.js';
import { nothingBlocked, type PageBlocking } from '../shared/block-lists/request-blocker.js';
import type { CapturePage, ScreencastRecording } from '../shared/capture-adapter.js';
import type { Deadline } from '../shared/deadline.js';
import type { AddScriptTag } from '../shared/run-scripts.js';
import { webUrlOrEmpty } from '../shared/shown-url.js';
import { recordedUrl } from '../source/source-document.js';
import { cdpEvaluate } from './cdp-evaluate.js';
import { cdpSessionFor } from './cdp-session.js';
import { DocumentResponse } from './document-response.js';
import type { Engine } from './engine.js';
import { openPage } from './open-page.js';
import { renderPdf } from './render-pdf.js';
import { PlaywrightSteps } from './run-steps.js';
import { Screencast } from './screencast.js';
import { PlaywrightShots } from './take-shot.js';

/** A Playwright page as the capture pipeline (drivers/shared/capture-pipeline.ts) drives it. */
export class PlaywrightPage implements CapturePage {
  readonly shots: PlaywrightShots;
  readonly steps: PlaywrightSteps;
  private readonly documentResponse: DocumentResponse;

  constructor(
    private readonly page: Page,
    private readonly spec: CaptureSpec,
    private readonly engine: Engine,
    readonly browserInfo: string,
    private readonly videoEncoder: VideoEncoder,
    pngEncoding: PngEncoding,
    limits: CaptureLimits,
    /** what the capture blocks, and the ad containers it hides */
    private readonly blocking: PageBlocking = { requests: null, ads: null },
  ) {
    this.documentResponse = new DocumentResponse(page);
    this.shots = new PlaywrightShots(page, spec, engine, pngEncoding, limits);
    this.steps = new PlaywrightSteps(page);
  }

  readonly addScriptTag: AddScriptTag = async (source) => {
    await this.page.addScriptTag(source);
  };

  startScreencast(video: VideoSpec): Promise<ScreencastRecording> {
    return Screencast.start(this.page, video, this.videoEncoder);
  }

  async addInitScript(source: string): Promise<void> {
    await this.page.addInitScript({ content: source });
  }

  open(deadline: Deadline, warnings: string[]): Promise<void> {
    return openPage(this.page, this.spec, this.engine, deadline, warnings);
  }

  evaluate<A extends [] | [unknown], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
    // Chromium: one CDP Runtime.evaluate on the page's own session (cdp-evaluate.ts), one round trip where
    // Playwright's first evaluate in each document makes two (it injects its utility script first).
    if (this.engine.name === 'chromium') return cdpSessionFor(this.page).then((session) => cdpEvaluate(session, fn, ...args));
    // Playwright passes one argument to a page function; page functions take at most one.
    return this.page.evaluate(fn as (arg: unknown) => R, args[0]) as Promise<Awaited<R>>;
  }

  async beforeShot(warnings: string[]): Promise<void> {
    await this.blocking.ads?.beforeShot(this, warnings);
  }

  blockedCounts(): BlockedCounts {
    return this.blocking.requests?.counts ?? nothingBlocked();
  }

  async shownUrl(): Promise<string> {
    return recordedUrl(this.spec, webUrlOrEmpty(this.page.url()));
  }

  responseCode(): number | null {
    return this.documentResponse.status;
  }

  html(): Promise<string> {
    return this.page.content();
  }

  pdf(pdf: PdfSpec): Promise<Buffer> {
    return renderPdf(this.page, pdf, this.engine);
  }
}
