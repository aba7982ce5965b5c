import type { Browser, Page } from 'playwright-core';
import type { CaptureOutput, CaptureSpec, TrackerResult } from '../../core/capture-spec.js';
import { collectLinks } from '../page-scripts/collect-links.js';
import { hidePopups } from '../page-scripts/hide-popups.js';
import { lazyLoadScroll } from '../page-scripts/lazy-load-scroll.js';
import { readTrackers, type TrackerReading } from '../page-scripts/read-trackers.js';
import type { VideoEncoder } from '../video/video-encoder.js';
import type { AdBlocker } from './ad-blocker.js';
import { applyBraveEmulation } from './brave-emulation.js';
import { contextOptions, grantFirstOriginPermissions } from './context-options.js';
import { Deadline } from './deadline.js';
import { DocumentResponse } from './document-response.js';
import type { Engine } from './engine.js';
import { errorText } from './error-text.js';
import { openPage } from './open-page.js';
import { OUTPUT_TIMEOUT_MS } from './output-timeout.js';
import { renderPdf } from './render-pdf.js';
import { runScripts } from './run-scripts.js';
import { runSteps } from './run-steps.js';
import { ScreencastCapture } from './screencast-capture.js';
import { ShotTaker } from './take-shot.js';
import { unsupportedOptionWarnings } from './unsupported-options.js';
import { withTimeout } from './with-timeout.js';

/** What a capture needs besides the browser, shared by all captures of a driver. */
export interface CaptureServices {
  adBlocker: AdBlocker;
  videoEncoder: VideoEncoder;
  /** the deadline used when a spec's maxWait is 0 ("service default"), in ms */
  defaultMaxWaitMs: number;
}

/** An in-page script's result, within the output time limit. */
function inPage<R>(evaluation: Promise<R>, what: string): Promise<R> {
  return withTimeout(evaluation, OUTPUT_TIMEOUT_MS, `${what} timed out`);
}

/**
 * The URL the page shows, or '' when it is not a web page: after a failed navigation Chromium shows
 * chrome-error://chromewebdata/ and nothing was loaded (the record's final_url is then empty).
 */
function shownUrl(page: Page): string {
  const url = page.url();
  return /^https?:\/\//i.test(url) ? url : '';
}

/** Times phases into CaptureOutput.timings. */
class PhaseClock {
  readonly timings: Record<string, number> = {};
  private last = Date.now();
  private readonly started = this.last;
  lap(phase: string): void {
    const now = Date.now();
    this.timings[phase] = (this.timings[phase] ?? 0) + (now - this.last);
    this.last = now;
  }
  total(): Record<string, number> {
    return { ...this.timings, total: Date.now() - this.started };
  }
}

/**
 * One capture in a fresh BrowserContext, closed in `finally`, whatever happens. The order of the phases
 * is the order a person would see: load, scripts, steps, delay, then the shots; outputs that change the
 * page (the PDF's measurement resizes the viewport) come after the video has stopped.
 * Waiting ends at the job's deadline (maxWait); producing outputs is bounded by OUTPUT_TIMEOUT_MS.
 * Only the abort signal (job cancelled) makes it throw; everything else that partly fails is a warning.
 */
export async function runCapture(browser: Browser, engine: Engine, info: string, spec: CaptureSpec, signal: AbortSignal, services: CaptureServices): Promise<CaptureOutput> {
  signal.throwIfAborted();
  const clock = new PhaseClock();
  const warnings = unsupportedOptionWarnings(spec, engine);
  const deadline = new Deadline(spec.maxWait > 0 ? spec.maxWait * 1000 : services.defaultMaxWaitMs, signal);
  const context = await browser.newContext(contextOptions(spec, engine));
  // Closing the context makes every pending Playwright call in it reject at once: that is the abort.
  const onAbort = (): void => void context.close().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  let screencast: ScreencastCapture | null = null;
  try {
    await grantFirstOriginPermissions(context, spec);
    if (spec.cookies.length > 0) {
      await context.addCookies(spec.cookies.map((cookie) => ({ name: cookie.name, value: cookie.value, url: spec.url })));
    }
    const page = await context.newPage();
    if (engine.braveEmulation) await applyBraveEmulation(page, spec);
    // Brave blocks by itself (its shields); hide_ads asks the same of chrome and firefox.
    if (spec.hideAds || engine.braveEmulation) await services.adBlocker.enable(page);
    const documentResponse = new DocumentResponse(page);
    if (spec.video) {
      screencast = await ScreencastCapture.start(page, spec.video, services.videoEncoder).catch((error: unknown) => {
        warnings.push(`The video could not be started: ${errorText(error)}`);
        return null;
      });
    }
    clock.lap('prepare');

    await openPage(page, spec, engine, deadline, warnings);
    clock.lap('load');
    await runScripts(page, spec, deadline, warnings);
    await runSteps(page, spec.steps, deadline, warnings);
    clock.lap('scripts_steps');
    if (spec.delay > 0) {
      const slept = await deadline.sleep(spec.delay * 1000);
      if (slept < spec.delay * 1000 - 1) warnings.push(`max_wait passed during the ${spec.delay} s delay; captured after ${(slept / 1000).toFixed(1)} s.`);
    }
    if (spec.size === 'page' && !deadline.passed) {
      await deadline
        .race(page.evaluate(lazyLoadScroll, { maxHeight: spec.maxHeight, budgetMs: deadline.remaining() }), 'the scroll through the page')
        .catch((error: unknown) => warnings.push(`Lazy content may be missing: ${errorText(error)}`));
    }
    clock.lap('wait');

    const shots = new ShotTaker(page, spec, engine, warnings);
    const images: Buffer[] = [];
    const finalUrls: string[] = [];
    const readings: TrackerReading[][] = [];
    for (let shot = 1; shot <= spec.shots; shot += 1) {
      if (shot > 1 && spec.shotInterval > 0) {
        const slept = await deadline.sleep(spec.shotInterval * 1000);
        if (slept < spec.shotInterval * 1000 - 1) warnings.push(`max_wait passed before shot ${shot}; it was taken without waiting the full interval.`);
      }
      // Popups often appear late (a timer, the first scroll), so they are hidden again before every shot.
      if (spec.hidePopups) await inPage(page.evaluate(hidePopups), 'hiding popups').catch((error: unknown) => warnings.push(`Popups could not be hidden: ${errorText(error)}`));
      images.push(await shots.take(deadline));
      finalUrls.push(shownUrl(page));
      if (spec.trackers.length > 0) {
        readings.push(await inPage(page.evaluate(readTrackers, spec.trackers), 'reading trackers').catch((error: unknown) => {
          warnings.push(`Trackers could not be read at shot ${shot}: ${errorText(error)}`);
          return spec.trackers.map((tracker) => ({ found: 0 as const, name: tracker.name }));
        }));
      }
    }
    clock.lap('shots');

    const html = spec.html ? await withTimeout(page.content(), OUTPUT_TIMEOUT_MS, 'the HTML timed out') : null;
    const links = await inPage(page.evaluate(collectLinks), 'collecting links').catch((error: unknown) => {
      warnings.push(`Links could not be collected: ${errorText(error)}`);
      return [];
    });
    const userAgent = await inPage(page.evaluate(() => navigator.userAgent), 'reading the user agent').catch(() => spec.userAgent ?? '');
    clock.lap('html_links');

    let video: CaptureOutput['video'] = null;
    if (screencast && spec.video) {
      const recording = screencast;
      screencast = null;
      video = await recording.stop(signal).then(
        (data) => ({ data, format: spec.video!.format }),
        (error: unknown) => {
          signal.throwIfAborted();
          warnings.push(`The video could not be encoded: ${errorText(error)}`);
          return null;
        },
      );
      clock.lap('video');
    }
    let pdf: Buffer | null = null;
    if (spec.pdf) {
      pdf = await renderPdf(page, spec.pdf, engine).catch((error: unknown) => {
        signal.throwIfAborted();
        warnings.push(`The PDF could not be rendered on ${engine.browser}: ${errorText(error)}`);
        return null;
      });
      clock.lap('pdf');
    }

    const trackers: TrackerResult[] = spec.trackers.map((tracker, index) => ({
      ...tracker,
      return: readings.map((shot, shotIndex) => ({ ...(shot[index] ?? { found: 0, name: tracker.name }), shot: shotIndex + 1 })),
    }));
    return {
      images,
      html,
      pdf,
      video,
      finalUrl: shownUrl(page),
      finalUrls,
      responseCode: documentResponse.status,
      links,
      trackers,
      userAgent,
      browserInfo: info,
      warnings,
      timings: clock.total(),
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (screencast) await screencast.abort();
    await context.close().catch(() => undefined);
  }
}
