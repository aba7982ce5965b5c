import type { WebDriver } from 'selenium-webdriver';
import type { CaptureOutput, CaptureSpec, TrackerResult } from '../../core/capture-spec.js';
import { collectLinks } from '../page-scripts/collect-links.js';
import { hidePopups } from '../page-scripts/hide-popups.js';
import { lazyLoadScroll } from '../page-scripts/lazy-load-scroll.js';
import { readTrackers, type TrackerReading } from '../page-scripts/read-trackers.js';
import { Deadline } from '../playwright/deadline.js';
import { errorText } from '../playwright/error-text.js';
import { OUTPUT_TIMEOUT_MS } from '../playwright/output-timeout.js';
import { withTimeout } from '../playwright/with-timeout.js';
import { PhaseClock } from '../shared/phase-clock.js';
import { viewportOf } from '../shared/viewport.js';
import { hideAdContainers } from './ad-containers.js';
import type { SeleniumCaptureServices } from './capture-services.js';
import { sessionCapabilities } from './capabilities.js';
import { CdpSession } from './cdp-session.js';
import { DocumentStatus } from './document-status.js';
import { inPage as evaluate } from './in-page.js';
import { closeSession, openSession } from './open-session.js';
import { openPage } from './open-page.js';
import { applyEmulation } from './page-emulation.js';
import { printPdf } from './print-pdf.js';
import { RequestInterceptor } from './request-interceptor.js';
import { runScripts } from './run-scripts.js';
import { runSteps } from './run-steps.js';
import { Screencast } from './screencast.js';
import { shownUrl } from './shown-url.js';
import { ShotTaker } from './take-shot.js';

/** An in-page script's result, within the output time limit. */
function inPage<R>(evaluation: Promise<R>, what: string): Promise<R> {
  return withTimeout(evaluation, OUTPUT_TIMEOUT_MS, `${what} timed out`);
}

/** The session's CDP relay: the grid announces it as the `se:cdp` capability. */
async function cdpOf(driver: WebDriver): Promise<CdpSession> {
  const url = (await driver.getCapabilities()).get('se:cdp') as unknown;
  if (typeof url !== 'string' || url === '') {
    throw new Error('the grid offers no CDP relay for this session (se:cdp is missing; start it with --enable-cdp true): the selenium driver needs it');
  }
  return CdpSession.connect(url, OUTPUT_TIMEOUT_MS);
}

/**
 * One capture in a fresh WebDriver session on the grid (the Selenium analogue of a fresh browser
 * context), quit in `finally` whatever happens. The phases and their order, the deadline rules and the
 * warning sentences are those of drivers/playwright/capture-job.ts: load, scripts, steps, delay, the
 * shots, then the outputs; only the abort signal makes it throw.
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
  signal.throwIfAborted();
  const clock = new PhaseClock();
  const warnings: string[] = [];
  const deadline = new Deadline(spec.maxWait > 0 ? spec.maxWait * 1000 : services.defaultMaxWaitMs, signal);
  const viewport = viewportOf(spec);
  const driver = await openSession(gridUrl, sessionCapabilities(spec, services.chromeFlags, binary));
  sessions.add(driver);
  // Ending the session makes every pending WebDriver and CDP call fail at once: that is the abort.
  const onAbort = (): void => void closeSession(driver);
  signal.addEventListener('abort', onAbort, { once: true });
  let cdp: CdpSession | null = null;
  let screencast: Screencast | null = null;
  try {
    const capabilities = await driver.getCapabilities();
    const browserInfo = `chromium ${String(capabilities.get('browserVersion'))} (selenium grid)`;
    cdp = await cdpOf(driver);
    await applyEmulation(cdp, spec);
    const engine = spec.hideAds ? await services.adBlock.load() : null;
    await RequestInterceptor.start(cdp, new URL(spec.url).href, spec.postData, engine);
    const documentStatus = new DocumentStatus(cdp);
    if (spec.video) {
      screencast = await Screencast.start(cdp, spec.video, viewport, services.videoEncoder).catch((error: unknown) => {
        warnings.push(`The video could not be started: ${errorText(error)}`);
        return null;
      });
    }
    clock.lap('prepare');

    await openPage(driver, cdp, spec, deadline, warnings);
    clock.lap('load');
    await runScripts(driver, spec, deadline, warnings);
    await runSteps(driver, cdp, spec.steps, deadline, warnings);
    clock.lap('scripts_steps');
    if (spec.delay > 0) {
      const slept = await deadline.sleep(spec.delay * 1000);
      if (slept < spec.delay * 1000 - 1) warnings.push(`max_wait passed during the ${spec.delay} s delay; captured after ${(slept / 1000).toFixed(1)} s.`);
    }
    if (spec.size === 'page' && !deadline.passed) {
      await deadline
        .race(evaluate(driver, lazyLoadScroll, { maxHeight: spec.maxHeight, budgetMs: deadline.remaining() }), 'the scroll through the page')
        .catch((error: unknown) => warnings.push(`Lazy content may be missing: ${errorText(error)}`));
    }
    clock.lap('wait');

    const shots = new ShotTaker(driver, cdp, spec, warnings);
    const images: Buffer[] = [];
    const finalUrls: string[] = [];
    const readings: TrackerReading[][] = [];
    for (let shot = 1; shot <= spec.shots; shot += 1) {
      if (shot > 1 && spec.shotInterval > 0) {
        const slept = await deadline.sleep(spec.shotInterval * 1000);
        if (slept < spec.shotInterval * 1000 - 1) warnings.push(`max_wait passed before shot ${shot}; it was taken without waiting the full interval.`);
      }
      // Popups often appear late (a timer, the first scroll), so they are hidden again before every shot.
      if (spec.hidePopups) await inPage(evaluate(driver, hidePopups), 'hiding popups').catch((error: unknown) => warnings.push(`Popups could not be hidden: ${errorText(error)}`));
      // Blocked ads leave empty containers; the cosmetic filters hide them, with what the page shows now.
      if (engine) await inPage(hideAdContainers(driver, engine), 'hiding ad containers').catch((error: unknown) => warnings.push(`Ad containers could not be hidden: ${errorText(error)}`));
      images.push(await shots.take(deadline));
      finalUrls.push(await inPage(shownUrl(cdp), 'reading the URL'));
      if (spec.trackers.length > 0) {
        readings.push(await inPage(evaluate(driver, readTrackers, spec.trackers), 'reading trackers').catch((error: unknown) => {
          warnings.push(`Trackers could not be read at shot ${shot}: ${errorText(error)}`);
          return spec.trackers.map((tracker) => ({ found: 0 as const, name: tracker.name }));
        }));
      }
    }
    clock.lap('shots');

    const html = spec.html ? await inPage(driver.getPageSource(), 'the HTML') : null;
    const links = await inPage(evaluate(driver, collectLinks), 'collecting links').catch((error: unknown) => {
      warnings.push(`Links could not be collected: ${errorText(error)}`);
      return [];
    });
    const userAgent = await inPage(driver.executeScript<string>('return navigator.userAgent;'), 'reading the user agent').catch(() => spec.userAgent ?? '');
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
      const metrics = { width: viewport.width, height: viewport.height, deviceScaleFactor: spec.device.scale, mobile: spec.device.mobile };
      pdf = await printPdf(driver, cdp, spec.pdf, metrics).catch((error: unknown) => {
        signal.throwIfAborted();
        warnings.push(`The PDF could not be rendered on chrome: ${errorText(error)}`);
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
      finalUrl: await inPage(shownUrl(cdp), 'reading the URL'),
      finalUrls,
      responseCode: documentStatus.status,
      links,
      trackers,
      userAgent,
      browserInfo,
      warnings,
      timings: clock.total(),
    };
  } catch (error) {
    // Calls fail in many ways once the session is gone; the job's cancellation is the reason to report.
    signal.throwIfAborted();
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (screencast) await screencast.abort();
    cdp?.close();
    await closeSession(driver);
    sessions.delete(driver);
  }
}
