import type { WebDriver } from 'selenium-webdriver';
import type { BlockedCounts, CaptureSpec, PdfSpec, VideoSpec } from '../../core/capture-spec.js';
import type { CaptureLimits, PngEncoding } from '../../core/contracts/browser-driver.js';
import { nothingBlocked, type PageBlocking } from '../shared/block-lists/request-blocker.js';
import type { CapturePage, ScreencastRecording } from '../shared/capture-adapter.js';
import { addScriptTag } from '../shared/add-script-tag.js';
import type { Deadline } from '../shared/deadline.js';
import type { AddScriptTag } from '../shared/run-scripts.js';
import { webUrlOrEmpty } from '../shared/shown-url.js';
import { recordedUrl } from '../source/source-document.js';
import { viewportOf } from '../shared/viewport.js';
import type { VideoEncoder } from '../video/video-encoder.js';
import type { CdpSession } from './cdp-session.js';
import type { DocumentResponse } from './document-response.js';
import { inPage } from './in-page.js';
import { openPage } from './open-page.js';
import { renderPdf } from './render-pdf.js';
import { SeleniumSteps } from './run-steps.js';
import { Screencast } from './screencast.js';
import { SeleniumShots } from './take-shot.js';

interface FrameTree {
  frameTree: { frame: { url: string; urlFragment?: string } };
}

/** The page of a WebDriver session as the capture pipeline (drivers/shared/capture-pipeline.ts) drives it. */
export class SeleniumPage implements CapturePage {
  readonly shots: SeleniumShots;
  readonly steps: SeleniumSteps;

  constructor(
    private readonly driver: WebDriver,
    private readonly cdp: CdpSession,
    private readonly spec: CaptureSpec,
    readonly browserInfo: string,
    private readonly documentResponse: DocumentResponse,
    /** what the capture blocks, and the ad containers it hides */
    private readonly blocking: PageBlocking,
    private readonly videoEncoder: VideoEncoder,
    pngEncoding: PngEncoding,
    limits: CaptureLimits,
  ) {
    this.shots = new SeleniumShots(driver, cdp, spec, pngEncoding, limits);
    this.steps = new SeleniumSteps(driver, cdp);
  }

  readonly addScriptTag: AddScriptTag = (source) => inPage(this.driver, addScriptTag, source);

  startScreencast(video: VideoSpec): Promise<ScreencastRecording> {
    return Screencast.start(this.cdp, video, viewportOf(this.spec), this.videoEncoder);
  }

  async addInitScript(source: string): Promise<void> {
    await this.cdp.send('Page.addScriptToEvaluateOnNewDocument', { source });
  }

  open(deadline: Deadline, warnings: string[]): Promise<void> {
    return openPage(this.driver, this.cdp, this.spec, deadline, warnings);
  }

  evaluate<A extends [] | [unknown], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
    return inPage(this.driver, fn, ...args);
  }

  async beforeShot(warnings: string[]): Promise<void> {
    await this.blocking.ads?.beforeShot(this, warnings);
  }

  blockedCounts(): BlockedCounts {
    return this.blocking.requests?.counts ?? nothingBlocked();
  }

  /**
   * The URL the page shows, from the main frame (CDP), or '' when it is not a web page. WebDriver's
   * current URL cannot be used: after a failed navigation it reports the URL that failed, while the
   * frame shows chrome-error://chromewebdata/ (the record's final_url is then empty).
   */
  async shownUrl(): Promise<string> {
    const { frameTree } = await this.cdp.send<FrameTree>('Page.getFrameTree');
    return recordedUrl(this.spec, webUrlOrEmpty(frameTree.frame.url + (frameTree.frame.urlFragment ?? '')));
  }

  responseCode(): number | null {
    return this.documentResponse.status;
  }

  html(): Promise<string> {
    return this.driver.getPageSource();
  }

  pdf(pdf: PdfSpec): Promise<Buffer> {
    const viewport = viewportOf(this.spec);
    const metrics = { width: viewport.width, height: viewport.height, deviceScaleFactor: this.spec.device.scale, mobile: this.spec.device.mobile };
    return renderPdf(this.driver, this.cdp, pdf, metrics);
  }
}
