import { expect } from 'chai';
import sharp from 'sharp';
import type { CaptureSpec, PdfSpec, VideoSpec } from '../../core/capture-spec.js';
import { runCapturePipeline, type PipelineSettings } from '../../drivers/shared/capture-pipeline.js';
import { UNRESPONSIVE_PAGE } from '../../drivers/shared/page-responds.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { FakeCaptureSession, TINY_PNG } from '../support/fake-browser-driver.js';

/** The capture pipeline's promises over a fake page (no browser): order, cleanup, deadline, warnings. */
describe('capture pipeline (fake page)', function () {
  const VIDEO: VideoSpec = { format: 'mp4', quality: 30, speed: 1, duration: 0, fps: 10, colors: 256, scale: 1 };
  const PDF: PdfSpec = { format: 'a4', landscape: false, background: true, onePage: false, margin: { top: '0', right: '0', bottom: '0', left: '0' } };
  const settings = (overrides: Partial<PipelineSettings> = {}): PipelineSettings => ({ defaultMaxWaitMs: 15_000, settleCapMs: 1_000, warnings: [], ...overrides });
  const spec = (overrides: Partial<CaptureSpec> = {}): CaptureSpec => captureSpec('chrome', 'http://fake.test/', { waitUntil: 'load', ...overrides });
  const run = (session: FakeCaptureSession, s: CaptureSpec, signal = new AbortController().signal, set = settings()) => runCapturePipeline(s, signal, set, async () => session);

  it('runs the phases in order: load, settle, scripts, steps, delay, shots, html/links, video, pdf; then closes the session', async function () {
    const session = new FakeCaptureSession();
    const output = await run(
      session,
      spec({
        waitUntil: 'settled',
        scripts: ['http://fake.test/a.js'],
        scriptInline: 'void 0',
        steps: [{ command: 'click', selector: '#go' }],
        delay: 0.05,
        size: 'page',
        html: true,
        video: VIDEO,
        pdf: PDF,
      }),
    );
    expect(session.calls).to.deep.equal([
      'preparePage',
      'startScreencast',
      'addInitScript',
      'open',
      'evaluate waitSettled',
      'addScriptTag http://fake.test/a.js',
      'addScriptTag inline',
      'step:click',
      'evaluate lazyLoadScroll',
      'fullPage',
      'shownUrl',
      'evaluate readAfterShots',
      'html',
      'stopScreencast',
      'pdf',
      'shownUrl',
      'close',
    ]);
    expect(output.images).to.deep.equal([TINY_PNG]);
    expect(output.html).to.equal('<html></html>');
    expect(output.video?.format).to.equal('mp4');
    expect(output.pdf?.toString()).to.equal('%PDF-fake');
    expect(output.links).to.deep.equal(['http://fake.test/a']);
    expect(output.warnings).to.deep.equal([]);
    expect(Object.keys(output.timings)).to.include.members(['load', 'settle', 'scripts_steps', 'wait', 'shots', 'html_links', 'video', 'pdf']);
  });

  it('closes the session when the job is aborted mid-load, and throws the abort reason', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.openMs = 10_000;
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    const error = await run(session, spec({ video: VIDEO }), controller.signal).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal('job cancelled');
    expect(Date.now() - started).to.be.below(2_000);
    expect(session.aborts).to.equal(1);
    expect(session.closes).to.equal(1);
    expect(session.calls).to.include('abortScreencast'); // the recording is thrown away, not left running
  });

  it('an abort while the session is being opened ends the capture at once; the session that arrives later is closed', async function () {
    const session = new FakeCaptureSession();
    const controller = new AbortController();
    // A grid session's start: seconds, during which the job is cancelled.
    const arrives = new Promise<FakeCaptureSession>((resolve) => setTimeout(() => resolve(session), 600));
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    const error = await runCapturePipeline(spec(), controller.signal, settings(), () => arrives).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal('job cancelled');
    expect(Date.now() - started, 'not held until the session arrived').to.be.below(500);
    await arrives;
    await new Promise((resolve) => setImmediate(resolve));
    expect(session.closes, 'the late session is closed').to.equal(1);
    expect(session.calls).to.deep.equal(['close']);
  });

  it('closes the session when the page throws where it never should', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.openThrows = true;
    const error = await run(session, spec()).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal('open was told to throw');
    expect(session.closes).to.equal(1);
  });

  it('an aborted signal before the start opens no session at all', async function () {
    const session = new FakeCaptureSession();
    const controller = new AbortController();
    controller.abort(new Error('already cancelled'));
    const error = await run(session, spec(), controller.signal).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal('already cancelled');
    expect(session.calls).to.deep.equal([]);
  });

  it('the deadline (max_wait) bounds the waits: a 30 s delay on a 0.3 s max_wait ends with a warning', async function () {
    const session = new FakeCaptureSession();
    const started = Date.now();
    const output = await run(session, spec({ maxWait: 0.3, delay: 30 }));
    expect(Date.now() - started).to.be.below(2_000);
    expect(output.images).to.have.length(1);
    expect(output.warnings.join('\n')).to.match(/max_wait passed during the 30 s delay/);
  });

  it('a spec with max_wait 0 uses the service default deadline', async function () {
    const session = new FakeCaptureSession();
    const started = Date.now();
    const output = await run(session, spec({ maxWait: 0, delay: 30 }), undefined, settings({ defaultMaxWaitMs: 200 }));
    expect(Date.now() - started).to.be.below(2_000);
    expect(output.warnings.join('\n')).to.match(/max_wait passed during the 30 s delay/);
  });

  it('partial failures become warnings and the capture goes on', async function () {
    const session = new FakeCaptureSession();
    for (const name of ['startScreencast', 'addScriptTag http://fake.test/a.js', 'step:click', 'pdf', 'evaluate readAfterShots']) session.behaviour.failing.add(name);
    const output = await run(
      session,
      spec({
        scripts: ['http://fake.test/a.js'],
        steps: [
          { command: 'click', selector: '#go' },
          { command: 'hover', selector: '#menu' },
        ],
        video: VIDEO,
        pdf: PDF,
      }),
    );
    expect(output.images).to.deep.equal([TINY_PNG]);
    expect(output.pdf).to.equal(null);
    expect(output.video).to.equal(null);
    expect(session.calls).to.include('step:hover'); // the step after the failing one still ran
    const warnings = output.warnings.join('\n');
    expect(warnings).to.match(/The video could not be started/);
    expect(warnings).to.match(/Script http:\/\/fake\.test\/a\.js did not run/);
    expect(warnings).to.match(/Step 1 \(click #go\) failed/);
    expect(warnings).to.match(/The PDF could not be rendered on chrome/);
    expect(warnings).to.match(/Links could not be collected/);
    expect(session.closes).to.equal(1);
  });

  it('a target that is not found falls back to the page once, with one warning', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.failing.add('element #missing');
    const output = await run(session, spec({ target: '#missing', shots: 2 }));
    expect(output.images).to.have.length(2);
    expect(session.calls.filter((call) => call.startsWith('element'))).to.have.length(1);
    expect(session.calls.filter((call) => call === 'viewport')).to.have.length(2);
    expect(output.warnings.filter((w) => w.includes('#missing'))).to.have.length(1);
  });

  it('an unreached page (no response code) runs no settle, scripts or steps, and says so', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.responseCode = null;
    const output = await run(session, spec({ waitUntil: 'settled', scripts: ['http://fake.test/a.js'], scriptInline: 'void 0', steps: [{ command: 'click', selector: '#go' }] }));
    expect(session.calls.filter((call) => call.startsWith('addScriptTag') || call.startsWith('step:') || call === 'evaluate waitSettled')).to.deep.equal([]);
    expect(output.warnings).to.include('The page could not be reached: its scripts and steps were not run.');
    expect(output.responseCode).to.equal(null);
    expect(output.images).to.have.length(1);
  });

  it('readiness runs after the steps and before the delay and the shots: the waits, the clicks in order, the hover, hiding, the CSS; each a timings entry', async function () {
    const session = new FakeCaptureSession();
    const output = await run(
      session,
      spec({
        steps: [{ command: 'type', selector: '#q', value: 'x' }],
        waitFor: '#content',
        waitForHidden: '.spinner',
        clicks: ['#tab-a', '#tab-b'],
        hover: '#menu',
        hideSelectors: ['#ad'],
        css: 'body { color: red }',
        size: 'page',
      }),
    );
    const from = session.calls.indexOf('step:type');
    expect(session.calls.slice(from, session.calls.indexOf('fullPage') + 1)).to.deep.equal([
      'step:type',
      'evaluate waitForSelectorState',
      'evaluate waitForSelectorState',
      'step:click',
      'step:click',
      'step:hover',
      'evaluate adoptStyleSheet',
      'evaluate adoptStyleSheet',
      'evaluate lazyLoadScroll',
      'fullPage',
    ]);
    expect(Object.keys(output.timings)).to.include.members(['wait_for', 'wait_for_hidden', 'click', 'hover', 'hide_selector', 'css', 'blank_check']);
    expect(output.warnings).to.deep.equal([]);
    expect(output.conditionFailed).to.equal(null);
    expect(output.blank).to.equal(false);
  });

  it('a spec stored before the readiness fields existed runs no readiness and no condition', async function () {
    const session = new FakeCaptureSession();
    const old = spec() as Partial<CaptureSpec>;
    for (const key of ['waitFor', 'waitForHidden', 'waitStrict', 'clicks', 'hover', 'hideSelectors', 'css', 'failOnStatus', 'failIfSelector', 'failUnlessSelector', 'failOnBlank'] as const)
      delete old[key];
    session.behaviour.responseCode = 404;
    const output = await run(session, old as CaptureSpec);
    expect(output.images).to.have.length(1);
    expect(output.conditionFailed).to.equal(null);
    expect(session.calls.filter((call) => /waitForSelectorState|adoptStyleSheet|selectorPresent|step:/.test(call))).to.deep.equal([]);
  });

  it('a click that fails is a warning naming it, and the next click still runs', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.failing.add('step:click');
    const output = await run(session, spec({ clicks: ['#a', '#b'] }));
    expect(output.warnings).to.deep.equal(['click 1 ("#a") failed: step:click was told to fail.', 'click 2 ("#b") failed: step:click was told to fail.']);
    expect(output.images).to.have.length(1);
    expect(output.conditionFailed).to.equal(null);
  });

  it('a wait not met is a warning naming the selector and the capture goes on; with wait_strict it ends with its sentence and no shot', async function () {
    const notMet = (): FakeCaptureSession => {
      const session = new FakeCaptureSession();
      session.behaviour.answers.set('waitForSelectorState', { met: false, invalid: false });
      return session;
    };
    const best = await run(notMet(), spec({ waitFor: '#content', clicks: ['#tab'] }));
    expect(best.images).to.have.length(1);
    expect(best.conditionFailed).to.equal(null);
    expect(best.warnings).to.have.length(1);
    expect(best.warnings[0]).to.match(/^wait_for: nothing matching "#content" was visible after \d+\.\d s; captured anyway\.$/);

    const session = notMet();
    const strict = await run(session, spec({ waitForHidden: '.spinner', waitStrict: true, clicks: ['#tab'] }));
    expect(strict.conditionFailed).to.match(/^wait_for_hidden: ".spinner" was still visible after \d+\.\d s\.$/);
    expect(strict.images).to.deep.equal([]);
    expect(session.calls).to.not.include('step:click');
    expect(session.calls).to.not.include('viewport');
  });

  it('a selector the browser refuses is said so: a warning for a best-attempt wait and for hide_selector', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.answers.set('waitForSelectorState', { met: false, invalid: true });
    session.behaviour.answers.set('adoptStyleSheet', { rules: 1, invalid: ['##'] });
    const output = await run(session, spec({ waitFor: '##', hideSelectors: ['##', '#ad'] }));
    expect(output.warnings).to.deep.equal(['wait_for: "##" is not a valid CSS selector; captured anyway.', 'hide_selector: "##" is not a valid CSS selector; nothing was hidden for it.']);
  });

  it('fail_on_status ends the capture once the document answered: nothing is waited for or shot, the sentence names the status', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.responseCode = 404;
    const output = await run(session, spec({ waitUntil: 'settled', failOnStatus: ['5xx', '4xx'], steps: [{ command: 'click', selector: '#go' }], clicks: ['#tab'], html: true }));
    expect(output.conditionFailed).to.equal('fail_on_status: the page answered with status 404 (4xx).');
    expect(output.images).to.deep.equal([]);
    expect(output.html).to.equal(null);
    expect(session.calls.filter((call) => /waitSettled|step:|viewport|^html$/.test(call))).to.deep.equal([]);
    expect(output.responseCode).to.equal(404);
    expect(session.closes).to.equal(1);
  });

  it('fail_on_status names a code as given; a status not listed fails nothing', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.responseCode = 503;
    expect((await run(session, spec({ failOnStatus: ['503'] }))).conditionFailed).to.equal('fail_on_status: the page answered with status 503.');
    const passing = new FakeCaptureSession();
    passing.behaviour.responseCode = 503;
    expect((await run(passing, spec({ failOnStatus: ['4xx', '502'] }))).conditionFailed).to.equal(null);
  });

  it('fail_if_selector and fail_unless_selector are checked after the readiness, on the page the shots would show', async function () {
    const present = new FakeCaptureSession();
    present.behaviour.answers.set('selectorPresent', { met: true, invalid: false });
    const failedIf = await run(present, spec({ failIfSelector: '.error', clicks: ['#tab'] }));
    expect(failedIf.conditionFailed).to.equal('fail_if_selector: an element matches ".error".');
    expect(present.calls.indexOf('evaluate selectorPresent')).to.be.above(present.calls.indexOf('step:click'));
    expect(failedIf.images).to.deep.equal([]);
    const absent = new FakeCaptureSession();
    expect((await run(absent, spec({ failUnlessSelector: '#main' }))).conditionFailed).to.equal('fail_unless_selector: nothing matches "#main".');
    const invalid = new FakeCaptureSession();
    invalid.behaviour.answers.set('selectorPresent', { met: false, invalid: true });
    expect((await run(invalid, spec({ failIfSelector: '##' }))).conditionFailed).to.equal('fail_if_selector: "##" is not a valid CSS selector.');
  });

  it('every capture is checked for blankness: a one-colour shot is blank with a warning, and ends the record with fail_on_blank', async function () {
    const oneColour = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const session = new FakeCaptureSession();
    session.behaviour.shot = oneColour;
    const output = await run(session, spec());
    expect(output.blank).to.equal(true);
    expect(output.warnings).to.deep.equal(['The capture looks blank: it shows one colour.']);
    expect(output.conditionFailed).to.equal(null);
    const failing = new FakeCaptureSession();
    failing.behaviour.shot = oneColour;
    expect((await run(failing, spec({ failOnBlank: true }))).conditionFailed).to.equal('fail_on_blank: the capture is blank (it shows one colour).');
  });

  it('a page whose shot has colours but on which nothing is visible is blank too', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.answers.set('hasVisibleContent', false);
    const output = await run(session, spec());
    expect(output.blank).to.equal(true);
    expect(output.warnings).to.deep.equal(['The capture looks blank: nothing is visible on the page.']);
  });

  it("the browser's own error page (a step's navigation failed: no web URL shown) is not checked for blankness", async function () {
    const session = new FakeCaptureSession();
    session.behaviour.shownUrl = '';
    session.behaviour.answers.set('hasVisibleContent', false);
    const output = await run(session, spec({ failOnBlank: true }));
    expect(output.blank).to.equal(false);
    expect(output.conditionFailed).to.equal(null);
    expect(session.evaluated.get('readAfterShots')).to.deep.equal([[false]]); // read for its links, not looked at for content
  });

  it('an unreached page is not checked for blankness', async function () {
    const session = new FakeCaptureSession();
    session.behaviour.responseCode = null;
    session.behaviour.answers.set('hasVisibleContent', false);
    const output = await run(session, spec({ failOnBlank: true }));
    expect(output.blank).to.equal(false);
    expect(output.conditionFailed).to.equal(null);
  });

  it("the settle wait's answer stands for the responsiveness probe; anything done to the page after it brings the probe back", async function () {
    const settled = new FakeCaptureSession();
    await run(settled, spec({ waitUntil: 'settled' }));
    expect(settled.calls.filter((c) => c.startsWith('evaluate'))).to.deep.equal(['evaluate waitSettled', 'evaluate readAfterShots']);
    const atLoad = new FakeCaptureSession();
    await run(atLoad, spec({ waitUntil: 'load' }));
    expect(atLoad.calls).to.include('evaluate anonymous');
    const delayed = new FakeCaptureSession();
    await run(delayed, spec({ waitUntil: 'settled', delay: 0.01 }));
    expect(delayed.calls).to.include('evaluate anonymous');
    const hovered = new FakeCaptureSession();
    await run(hovered, spec({ waitUntil: 'settled', hover: '#menu' }));
    expect(hovered.calls).to.include('evaluate anonymous');
  });

  it('an unresponsive page (evaluate never answers) ends with the unresponsive error, its session closed', async function () {
    this.timeout(10_000);
    const session = new FakeCaptureSession();
    session.behaviour.unresponsive = true;
    const error = await run(session, spec()).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal(UNRESPONSIVE_PAGE);
    expect(session.calls).to.not.include('viewport');
    expect(session.closes).to.equal(1);
  });
});
