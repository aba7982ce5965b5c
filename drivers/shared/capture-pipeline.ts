import type { CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import { lazyLoadScroll } from '../page-scripts/lazy-load-scroll.js';
import { SCROLL_WATCH_KEY } from '../page-scripts/full-page-init.js';
import { blankCheck } from './blank-check.js';
import { nothingBlocked } from './block-lists/request-blocker.js';
import type { CaptureSession, ScreencastRecording } from './capture-adapter.js';
import { blankCondition, selectorConditions, statusCondition } from './conditions.js';
import { Deadline } from './deadline.js';
import { errorText } from './error-text.js';
import { extractPage } from './extract-page.js';
import { withinOutputTime } from './output-timeout.js';
import { expectResponsive } from './page-responds.js';
import { readPageAfterShots } from './page-after-shots.js';
import { PhaseClock } from './phase-clock.js';
import { PopupHider } from './popup-hider.js';
import { readinessOf, runReadiness } from './readiness.js';
import { runScripts } from './run-scripts.js';
import { installSettleWatch, needsSettleWatch, settlePage } from './settle-page.js';
import { runSteps } from './run-steps.js';
import { takeShots, type ShotsTaken } from './shots-loop.js';
import { imageFormatOf, inSpecFormat } from './image-format.js';

export interface PipelineSettings {
  /** the deadline used when a spec's maxWait is 0 ("service default"), in ms */
  defaultMaxWaitMs: number;
  /** the longest settle wait after load (wait_until settled or networkidle), in ms; 0: none */
  settleCapMs: number;
  /** warnings known before the capture starts (options this browser cannot honour); the capture adds its own */
  warnings: string[];
}

/**
 * One capture, the same for every driver: `open` gives a fresh context or session, closed in `finally`
 * whatever happens (without waiting for the close). The order of the phases is the order a person would see: load, the page
 * settling (wait_until), scripts, steps, readiness (waits, clicks and the hover, hidden elements and CSS: readiness.ts), delay,
 * then the shots and the blank check; outputs that change the page (the PDF's measurement resizes the viewport) come
 * after the video has stopped. A condition of the request the page fails (conditions.ts, a strict wait) ends the
 * capture there with its sentence in `conditionFailed`: no shot and no output is produced for a record that ends `error`. Waiting ends at the job's deadline (maxWait); producing outputs is
 * bounded by OUTPUT_TIMEOUT_MS. Only the abort signal (job cancelled) makes it throw; everything else
 * that partly fails is a warning.
 */
/**
 * Whether the spec does anything to the page between the settle wait and the shots (scripts, steps, the
 * readiness options, a delay, during which the page's own timers run): the page's last answer is then stale.
 */
function actsOnPage(spec: CaptureSpec): boolean {
  const ready = readinessOf(spec);
  const readiness = ready.waitFor !== null || ready.waitForHidden !== null || ready.clicks.length > 0 || ready.hover !== null || ready.hideSelectors.length > 0 || ready.css !== null;
  return spec.scripts.length > 0 || spec.scriptInline !== null || spec.steps.length > 0 || spec.delay > 0 || readiness;
}

/**
 * The fresh context or session `open` gives, or the abort's reason as soon as the job is cancelled, whether or
 * not it has arrived: a grid session's start (a Chromium launched by chromedriver) takes seconds, and the job was
 * held until then. A session that arrives after the abort is closed at once, so no browser runs for nobody.
 */
async function openUnlessAborted(open: () => Promise<CaptureSession>, signal: AbortSignal): Promise<CaptureSession> {
  const opening = open();
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([opening, aborted]);
  } catch (error) {
    if (signal.aborted) void opening.then((late) => late.close()).catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export async function runCapturePipeline(spec: CaptureSpec, signal: AbortSignal, settings: PipelineSettings, open: () => Promise<CaptureSession>): Promise<CaptureOutput> {
  signal.throwIfAborted();
  const clock = new PhaseClock();
  const warnings = settings.warnings;
  const deadline = new Deadline(spec.maxWait > 0 ? spec.maxWait * 1000 : settings.defaultMaxWaitMs, signal);
  const session = await openUnlessAborted(open, signal);
  // Closing the context or session makes every pending call in it fail at once: that is the abort.
  const onAbort = (): void => session.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let screencast: ScreencastRecording | null = null;
  try {
    // An abort between the open and the listener (openUnlessAborted has let go, this one not yet heard): end here.
    signal.throwIfAborted();
    const page = await session.preparePage();
    if (spec.video) {
      screencast = await page.startScreencast(spec.video).catch((error: unknown) => {
        warnings.push(`The video could not be started: ${errorText(error)}.`);
        return null;
      });
    }
    const settles = needsSettleWatch(spec.waitUntil, settings.settleCapMs);
    if (settles) await installSettleWatch(page, warnings);
    const popups = spec.hidePopups ? new PopupHider(page) : null;
    await popups?.install(warnings);
    clock.lap('prepare');

    await page.open(deadline, warnings);
    clock.lap('load');
    // The request's conditions end the record as `error` (cost 0) with one plain sentence; once one fails,
    // nothing else is waited for or produced. fail_on_status is known as soon as the document answered.
    let conditionFailed = statusCondition(spec, page.responseCode());
    // No settling, scripts or steps on a page that was never reached: the browser shows its own error page
    // then (the egress guard refuses a private page at the connection), and the request's scripts would run
    // in the refused URL's origin for nothing a capture needs.
    const reached = page.responseCode() !== null;
    // Whether the page has just answered a script, with nothing done to it since: the settle wait's or the
    // lazy-load scroll's answer is the responsiveness probe's answer, and the probe's round trip is saved.
    let answered = false;
    if (reached && conditionFailed === null) {
      if (settles) {
        answered = await settlePage(page, spec.waitUntil, settings.settleCapMs, deadline, warnings);
        clock.lap('settle');
      }
      await runScripts(page.addScriptTag, spec, deadline, warnings);
      await runSteps(page.steps, spec.steps, deadline, warnings);
    } else if (!reached && (spec.scripts.length > 0 || spec.scriptInline !== null || spec.steps.length > 0)) {
      warnings.push('The page could not be reached: its scripts and steps were not run.');
    }
    clock.lap('scripts_steps');
    // Readiness: waits, clicks and the hover, hidden elements and CSS (each its own timings entry).
    if (reached && conditionFailed === null) conditionFailed = await runReadiness(page, spec, deadline, warnings, clock);
    if (actsOnPage(spec)) answered = false;
    if (conditionFailed === null) {
      if (spec.delay > 0) {
        const slept = await deadline.sleep(spec.delay * 1000);
        if (slept < spec.delay * 1000 - 1) warnings.push(`max_wait passed during the ${spec.delay} s delay; captured after ${(slept / 1000).toFixed(1)} s.`);
      }
      if (spec.size === 'page' && !deadline.passed) {
        answered = await deadline.race(page.evaluate(lazyLoadScroll, { maxHeight: spec.maxHeight, budgetMs: deadline.remaining(), watchKey: SCROLL_WATCH_KEY }), 'the scroll through the page').then(
          () => true,
          (error: unknown) => {
            warnings.push(`Lazy content may be missing: ${errorText(error)}.`);
            return false;
          },
        );
      }
      clock.lap('wait');
      // The page as the shots will show it: a step or a click may have loaded another document.
      if (reached) conditionFailed = statusCondition(spec, page.responseCode()) ?? (await selectorConditions(page, spec));
    }

    // A page whose scripts never yield would make every output below wait out its own timeout: it ends here.
    // A page never reached has no scripts of its own; on Chromium a navigation still waiting for a silent
    // host holds any script until it commits, which the probe would take for a hung page.
    if (reached && !answered) await expectResponsive(page);
    const { images, finalUrls, trackers }: ShotsTaken = conditionFailed === null ? await takeShots(page, spec, deadline, warnings, popups) : { images: [], finalUrls: [], trackers: [] };
    clock.lap('shots');
    // Every capture of a page is checked for blankness; a page never reached, or a step's navigation that
    // failed, shows the browser's own error page (no web URL), whose document a page script cannot read.
    const showsWebPage = (finalUrls[finalUrls.length - 1] ?? '') !== '';
    const looksForContent = reached && showsWebPage && conditionFailed === null;
    // The page's part of the blank check and the record's links in one round trip, beside the picture's look.
    const afterShots = readPageAfterShots(page, looksForContent, spec.userAgent ?? '', warnings);
    const blank = looksForContent
      ? await blankCheck(
          images,
          afterShots.then((read) => read.visible),
          warnings,
        )
      : null;
    conditionFailed ??= blankCondition(spec, blank);
    if (reached) clock.lap('blank_check');

    const produce = conditionFailed === null;
    // The stored format (png, jpeg, webp): after the blank check, which reads any of them.
    const stored = produce ? await inSpecFormat(images, spec) : images;
    if (produce && images.length > 0) clock.lap('image_format');
    const html = spec.html && produce ? await withinOutputTime(page.html(), 'the HTML') : null;
    const { links, userAgent } = await afterShots;
    clock.lap('html_links');
    const { markdown, metadata } = produce ? await extractPage(page, spec, images, warnings) : { markdown: null, metadata: null };
    if (produce && (spec.markdown || spec.metadata)) clock.lap('extract');

    let video: CaptureOutput['video'] = null;
    if (screencast && spec.video && produce) {
      const recording = screencast;
      screencast = null;
      video = await recording.stop(signal).then(
        (data) => ({ data, format: spec.video!.format }),
        (error: unknown) => {
          signal.throwIfAborted();
          warnings.push(`The video could not be encoded: ${errorText(error)}.`);
          return null;
        },
      );
      clock.lap('video');
    }
    let pdf: Buffer | null = null;
    if (spec.pdf && produce) {
      pdf = await page.pdf(spec.pdf).catch((error: unknown) => {
        signal.throwIfAborted();
        warnings.push(`The PDF could not be rendered on ${spec.browser}: ${errorText(error)}.`);
        return null;
      });
      clock.lap('pdf');
    }

    return {
      images: stored,
      imageFormat: imageFormatOf(spec).format,
      html,
      markdown,
      metadata,
      pdf,
      video,
      finalUrl: await withinOutputTime(page.shownUrl(), 'reading the URL'),
      finalUrls,
      responseCode: page.responseCode(),
      links,
      trackers,
      userAgent,
      browserInfo: page.browserInfo,
      warnings,
      blank: blank !== null,
      conditionFailed,
      blocked: page.blockedCounts?.() ?? nothingBlocked(),
      timings: clock.total(),
    };
  } catch (error) {
    // A call the abort cut short fails with the closed context's error; the caller is told why: the abort.
    signal.throwIfAborted();
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (screencast) await screencast.abort();
    // The result does not wait for the close (~20 ms of the browser's time, measured here): it goes to
    // storage while the context closes, and the next capture may already open its own context in the same
    // browser. close() never throws; a browser closed meanwhile ends it.
    void session.close();
  }
}
