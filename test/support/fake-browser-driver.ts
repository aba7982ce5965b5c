import type { BrowserName, CaptureOutput, CaptureSpec } from '../../core/capture-spec.js';
import type { BrowserDriver, BrowserHandle, LaunchOptions } from '../../core/contracts/browser-driver.js';
import type { CapturePage, CaptureSession, ScreencastRecording } from '../../drivers/shared/capture-adapter.js';
import type { Deadline } from '../../drivers/shared/deadline.js';
import type { StepActions } from '../../drivers/shared/run-steps.js';
import { abortableSleep } from '../../drivers/shared/abortable-sleep.js';

/**
 * Test doubles of the browser side, for the unit tier (no browser process): a BrowserDriver whose handles
 * answer captures with a tiny real PNG, and a CaptureSession/CapturePage that records the calls the capture
 * pipeline makes. Only tests import this file; production code never does.
 */

/** A real 4×3 PNG of two colours (black and white halves): the shot of a fake page that shows something, not blank. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWNgAIP/YABhY+MAACgNEe8WTzQlAAAAAElFTkSuQmCC', 'base64');

/** How the next captures of a fake handle behave. */
export type FakeCaptureMode = 'ok' | 'fail' | 'hang' | 'slow';

/** One started fake browser. */
export class FakeBrowserHandle implements BrowserHandle {
  readonly info: string;
  mode: FakeCaptureMode = 'ok';
  /** how long a capture takes in mode 'slow', in ms */
  slowMs = 200;
  captures = 0;
  closed = false;
  crashed = false;
  /** false makes healthy() answer false while the handle is otherwise live */
  sick = false;
  private readonly disconnectListeners: Array<() => void> = [];

  constructor(
    readonly browser: BrowserName,
    readonly id: number,
  ) {
    this.info = `fake ${browser} #${id}`;
  }

  async capture(spec: CaptureSpec, signal: AbortSignal): Promise<CaptureOutput> {
    signal.throwIfAborted();
    if (this.closed || this.crashed) throw new Error(`fake browser #${this.id} is gone`);
    this.captures += 1;
    if (this.mode === 'fail') throw new Error(`fake browser #${this.id} was told to fail`);
    if (this.mode === 'hang') await abortableSleep(2 ** 31 - 1, signal);
    if (this.mode === 'slow') await abortableSleep(this.slowMs, signal);
    return {
      images: Array.from({ length: spec.shots }, () => TINY_PNG),
      imageFormat: 'png',
      html: spec.html ? '<html></html>' : null,
      markdown: spec.markdown ? '# Fake page\n' : null,
      metadata: null,
      pdf: null,
      video: null,
      finalUrl: spec.url,
      finalUrls: Array.from({ length: spec.shots }, () => spec.url),
      responseCode: 200,
      links: [],
      trackers: [],
      userAgent: 'fake',
      browserInfo: this.info,
      warnings: [],
      blank: false,
      conditionFailed: null,
      blocked: { ads: 0, trackers: 0, chats: 0, social: 0, resources: 0, urls: 0 },
      timings: {},
    };
  }

  async healthy(): Promise<boolean> {
    return !this.closed && !this.crashed && !this.sick;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  onDisconnected(listener: () => void): void {
    this.disconnectListeners.push(listener);
  }

  /** The browser process dies: listeners hear it once, captures fail from now on. */
  crash(): void {
    if (this.crashed) return;
    this.crashed = true;
    for (const listener of this.disconnectListeners) listener();
  }
}

/** A BrowserDriver that starts FakeBrowserHandles and counts what it did. */
export class FakeBrowserDriver implements BrowserDriver {
  readonly kind = 'playwright' as const;
  readonly handles: FakeBrowserHandle[] = [];
  /** the next launch fails with this error (once) */
  failNextLaunch: Error | null = null;
  /** how long a launch takes, in ms */
  launchMs = 0;

  browsers(): BrowserName[] {
    return ['chrome', 'firefox'];
  }

  async launch(browser: BrowserName, _opts: LaunchOptions): Promise<FakeBrowserHandle> {
    if (this.launchMs > 0) await new Promise((resolve) => setTimeout(resolve, this.launchMs));
    if (this.failNextLaunch) {
      const error = this.failNextLaunch;
      this.failNextLaunch = null;
      throw error;
    }
    const handle = new FakeBrowserHandle(browser, this.handles.length + 1);
    this.handles.push(handle);
    return handle;
  }

  get launches(): number {
    return this.handles.length;
  }

  get closes(): number {
    return this.handles.filter((handle) => handle.closed).length;
  }

  /** browsers started and neither closed nor crashed */
  get live(): number {
    return this.handles.filter((handle) => !handle.closed && !handle.crashed).length;
  }
}

/** How a fake page answers; each can be changed per test. */
export interface FakePageBehaviour {
  /** the document's status; null: the page could not be reached */
  responseCode: number | null;
  /** evaluate() never answers (a page whose scripts never yield) */
  unresponsive: boolean;
  /** these call names throw (e.g. 'pdf', 'html', 'step:click', 'addScriptTag', 'startScreencast', 'viewport') */
  failing: Set<string>;
  /** open() throws (a page must never do that; the pipeline must still close the session) */
  openThrows: boolean;
  /** open() waits this long (ms) before it returns, or until the session is aborted */
  openMs: number;
  /** what evaluate() answers for a page function, by its name, instead of fakeEvaluateResult's */
  answers: Map<string, unknown>;
  /** the picture every shot gives */
  shot: Buffer;
  /** the URL the page shows ('' for the browser's own error page) */
  shownUrl: string;
}

/**
 * A CaptureSession and its CapturePage that answer at once and record every call in `calls`, in order
 * (evaluate calls are recorded by the page function's name).
 */
export class FakeCaptureSession implements CaptureSession {
  readonly calls: string[] = [];
  readonly behaviour: FakePageBehaviour = {
    responseCode: 200,
    unresponsive: false,
    failing: new Set(),
    openThrows: false,
    openMs: 0,
    answers: new Map(),
    shot: TINY_PNG,
    shownUrl: 'http://fake.test/',
  };
  closes = 0;
  aborts = 0;
  /** The arguments each page function was evaluated with, by its name, in call order. */
  readonly evaluated = new Map<string, unknown[][]>();
  private readonly aborted = new AbortController();

  preparePage(): Promise<CapturePage> {
    this.calls.push('preparePage');
    return Promise.resolve(this.page());
  }

  abort(): void {
    this.aborts += 1;
    this.calls.push('abort');
    this.aborted.abort(new Error('the fake context was closed'));
  }

  close(): Promise<void> {
    this.closes += 1;
    this.calls.push('close');
    return Promise.resolve();
  }

  /** Records `name`; throws when the behaviour says it fails, or when the session was aborted. */
  private async call(name: string): Promise<void> {
    this.calls.push(name);
    this.aborted.signal.throwIfAborted();
    if (this.behaviour.failing.has(name)) throw new Error(`${name} was told to fail`);
  }

  private page(): CapturePage {
    const call = (name: string): Promise<void> => this.call(name);
    const behaviour = this.behaviour;
    const sessionAbort = this.aborted.signal;
    const stepAction = (name: string) => async (): Promise<void> => call(`step:${name}`);
    const steps: StepActions = {
      click: stepAction('click'),
      hover: stepAction('hover'),
      type: stepAction('type'),
      select: stepAction('select'),
      press: stepAction('press'),
      waitFor: stepAction('waitFor'),
      scrollIntoView: stepAction('scrollIntoView'),
      scrollPage: stepAction('scrollPage'),
      navigate: stepAction('navigate'),
      settle: async (): Promise<void> => undefined,
    };
    return {
      browserInfo: 'fake chromium',
      shots: {
        element: async (selector: string): Promise<Buffer> => {
          await call(`element ${selector}`);
          return behaviour.shot;
        },
        fullPage: async (): Promise<Buffer> => {
          await call('fullPage');
          return behaviour.shot;
        },
        viewport: async (): Promise<Buffer> => {
          await call('viewport');
          return behaviour.shot;
        },
      },
      steps,
      addScriptTag: async (source: { url?: string; content?: string }): Promise<void> => call(`addScriptTag ${source.url ?? 'inline'}`),
      startScreencast: async (): Promise<ScreencastRecording> => {
        await call('startScreencast');
        return {
          stop: async (): Promise<Buffer> => {
            await call('stopScreencast');
            return Buffer.from('fake video');
          },
          abort: async (): Promise<void> => void this.calls.push('abortScreencast'),
        };
      },
      addInitScript: async (): Promise<void> => call('addInitScript'),
      open: async (deadline: Deadline, warnings: string[]): Promise<void> => {
        await call('open');
        if (behaviour.openThrows) throw new Error('open was told to throw');
        // As the drivers do: a load that fails is a warning; only the job's abort makes open() throw.
        if (behaviour.openMs > 0) {
          await abortableSleep(Math.min(behaviour.openMs, deadline.remaining()), sessionAbort).catch((error: unknown) => {
            deadline.check();
            warnings.push(`The page did not load: ${String(error)}`);
          });
        }
      },
      evaluate: async <A extends [] | [unknown], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> => {
        await call(`evaluate ${fn.name || 'anonymous'}`);
        this.evaluated.set(fn.name, [...(this.evaluated.get(fn.name) ?? []), args]);
        if (behaviour.unresponsive) await new Promise<never>((_resolve, reject) => sessionAbort.addEventListener('abort', () => reject(sessionAbort.reason as Error), { once: true }));
        if (fn.name === 'readAfterShots') {
          // One page function for the blank check's look (answered as `hasVisibleContent`) and the links.
          const visible = args[0] === true ? ((behaviour.answers.get('hasVisibleContent') as boolean | undefined) ?? true) : null;
          return { visible, ...(fakeEvaluateResult('linksAndUserAgent') as object) } as Awaited<R>;
        }
        return (behaviour.answers.has(fn.name) ? behaviour.answers.get(fn.name) : fakeEvaluateResult(fn.name)) as Awaited<R>;
      },
      shownUrl: async (): Promise<string> => {
        await call('shownUrl');
        return behaviour.shownUrl;
      },
      responseCode: (): number | null => behaviour.responseCode,
      html: async (): Promise<string> => {
        await call('html');
        return '<html></html>';
      },
      pdf: async (): Promise<Buffer> => {
        await call('pdf');
        return Buffer.from('%PDF-fake');
      },
    };
  }
}

/** What the pipeline's page scripts expect back from a page that has nothing special on it. */
function fakeEvaluateResult(name: string): unknown {
  if (name === 'linksAndUserAgent') return { links: ['http://fake.test/a'], userAgent: 'fake agent' };
  if (name === 'waitSettled') return { settled: true };
  if (name === 'hasVisibleContent') return true;
  if (name === 'waitForSelectorState') return { met: true, invalid: false };
  if (name === 'selectorPresent') return { met: false, invalid: false };
  if (name === 'adoptStyleSheet') return { rules: 0, invalid: [] };
  return undefined;
}
