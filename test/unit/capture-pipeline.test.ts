import { expect } from 'chai';
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
      'evaluate anonymous',
      'fullPage',
      'shownUrl',
      'html',
      'evaluate linksAndUserAgent',
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
    for (const name of ['startScreencast', 'addScriptTag http://fake.test/a.js', 'step:click', 'pdf', 'evaluate linksAndUserAgent']) session.behaviour.failing.add(name);
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
