/**
 * Where the page keeps what the settle watch sees: a registered symbol, as the scroll watch
 * (full-page-init.ts), so it collides with nothing a page defines and does not show in Object.keys(window).
 */
export const SETTLE_WATCH_KEY = 'shotfarm.settleWatch';

/** What the watch records in the page (wait-settled.ts reads it). Times are performance.now() values. */
export interface SettleWatch {
  /** requests the page started and that have not ended: fetch, XHR, and script, stylesheet and image loads */
  pending: number;
  /** when a request last started or ended */
  lastRequest: number;
  /** when the DOM last changed (nodes, attributes, text) */
  lastMutation: number;
  /**
   * From `load` until the settle wait takes over: when the last few animation frames ran (newest last), the
   * layout they saw, and when it last changed. A page that has settled by the time the wait starts has then
   * already shown its quiet frames, and the wait answers at once instead of watching frames of its own.
   */
  frames: number[];
  layout: string;
  lastLayoutChange: number;
  /** set by the settle wait: the frame loop stops (it would keep the renderer producing frames) */
  framesTaken: boolean;
  /**
   * Targets of the page's IntersectionObservers whose first callback has not run yet, and when the latest
   * was observed. A lazy loader starts its loads in that callback, which a browser under load runs frames
   * after the `observe` call (its task waits behind the frames): until it has run, the page has not said
   * what it will load.
   */
  observing: number;
  lastObserve: number;
}

/** Frames the watch remembers: more than any rule's `frames` (wait-settled.ts). */
export const WATCHED_FRAMES = 8;
/** The frame loop stops by itself after this long, should no settle wait ever take over. */
export const FRAME_LOOP_MS = 60_000;

/**
 * Init script of the settle wait (wait_until settled or networkidle), installed before any page script
 * runs; self-contained. It counts the requests in flight in the page itself, so one mechanism serves
 * both drivers and every browser (Chromium over CDP, Firefox over WebDriver BiDi, a Selenium grid): no
 * driver-level network events, which Playwright and a grid's CDP relay report differently.
 * - fetch and XMLHttpRequest, from the call until the response (or failure);
 * - <script src>, stylesheet <link> and <img> loads, from the element's insertion (or new src) until its
 *   load or error event. Lazy images are left to the viewport check of wait-settled.ts: off screen they
 *   never load, and would hold the wait for nothing.
 * Requests it cannot see (CSS backgrounds, font files, workers) still end in a Resource Timing entry,
 * which the wait counts as activity; fonts have document.fonts.
 * Only the top document is watched: it is what the capture shows. The methods are wrapped in Proxies, so
 * they still print as `[native code]` with their names and lengths.
 */
export function watchSettling(key: string, keptFrames: number, loopMs: number): void {
  if (window.top !== window) return;
  const now = performance.now();
  const watch: SettleWatch = { pending: 0, lastRequest: now, lastMutation: now, frames: [], layout: '', lastLayoutChange: now, framesTaken: false, observing: 0, lastObserve: 0 };
  Object.defineProperty(window, Symbol.for(key), { value: watch, configurable: true });

  // The same measure as wait-settled.ts's (page functions are self-contained, so it is written twice).
  const layout = (): string => {
    const root = document.documentElement;
    const body = document.body?.getBoundingClientRect();
    return `${root.scrollWidth}x${root.scrollHeight} ${body ? `${body.width}x${body.height}@${body.x},${body.y}` : ''}`;
  };
  const frame = (): void => {
    const at = performance.now();
    if (watch.framesTaken || at - now > loopMs) return;
    const current = layout();
    if (current !== watch.layout) {
      watch.layout = current;
      watch.lastLayoutChange = at;
    }
    watch.frames.push(at);
    if (watch.frames.length > keptFrames) watch.frames.shift();
    requestAnimationFrame(frame);
  };
  // Registered before any page script, so the loop's frame callback runs before the page's in each frame.
  addEventListener(
    'load',
    () => {
      watch.layout = layout();
      watch.lastLayoutChange = performance.now();
      requestAnimationFrame(frame);
    },
    { once: true },
  );
  const begin = (): (() => void) => {
    watch.pending += 1;
    watch.lastRequest = performance.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      watch.pending -= 1;
      watch.lastRequest = performance.now();
    };
  };

  if (typeof window.fetch === 'function') {
    window.fetch = new Proxy(window.fetch, {
      apply(fetch, self, args) {
        const end = begin();
        try {
          const response = Reflect.apply(fetch, self, args) as Promise<Response>;
          // Both outcomes handled here, so a rejection the page handles does not become unhandled.
          response.then(end, end);
          return response;
        } catch (error) {
          end();
          throw error;
        }
      },
    });
  }

  XMLHttpRequest.prototype.send = new Proxy(XMLHttpRequest.prototype.send, {
    apply(send, request: XMLHttpRequest, args) {
      const end = begin();
      request.addEventListener('loadend', end, { once: true });
      try {
        Reflect.apply(send, request, args);
      } catch (error) {
        end();
        throw error;
      }
      // A synchronous request has ended when send returns.
      if (request.readyState === XMLHttpRequest.DONE) end();
    },
  });

  if (typeof window.IntersectionObserver === 'function') {
    // Per observer: the targets it observes, and those of them its callback has not been given yet.
    const observedBy = new WeakMap<IntersectionObserver, { observed: Set<Element>; waiting: Set<Element> }>();
    const targetsOf = (observer: IntersectionObserver): { observed: Set<Element>; waiting: Set<Element> } => {
      let targets = observedBy.get(observer);
      if (!targets) observedBy.set(observer, (targets = { observed: new Set(), waiting: new Set() }));
      return targets;
    };
    const delivered = (observer: IntersectionObserver, entries: IntersectionObserverEntry[]): void => {
      const waiting = observedBy.get(observer)?.waiting;
      for (const entry of entries) if (waiting?.delete(entry.target)) watch.observing -= 1;
    };
    window.IntersectionObserver = new Proxy(window.IntersectionObserver, {
      construct(IntersectionObserverClass, args: unknown[], newTarget) {
        const [callback, ...rest] = args;
        const noted =
          typeof callback === 'function'
            ? new Proxy(callback, {
                apply(pageCallback, self, callbackArgs: [IntersectionObserverEntry[], IntersectionObserver]) {
                  // Counted before the page's callback runs: the loads it starts are then the watch's requests.
                  delivered(callbackArgs[1], callbackArgs[0]);
                  return Reflect.apply(pageCallback, self, callbackArgs);
                },
              })
            : callback;
        return Reflect.construct(IntersectionObserverClass, [noted, ...rest], newTarget) as object;
      },
    });
    const proto = window.IntersectionObserver.prototype;
    proto.observe = new Proxy(proto.observe, {
      apply(observe, observer: IntersectionObserver, args: [Element]) {
        const result = Reflect.apply(observe, observer, args);
        // observe() threw for a non-element before this line; a target observed already gets no first callback again.
        const targets = targetsOf(observer);
        if (!targets.observed.has(args[0])) {
          targets.observed.add(args[0]);
          targets.waiting.add(args[0]);
          watch.observing += 1;
          watch.lastObserve = performance.now();
        }
        return result;
      },
    });
    proto.unobserve = new Proxy(proto.unobserve, {
      apply(unobserve, observer: IntersectionObserver, args: [Element]) {
        const targets = observedBy.get(observer);
        targets?.observed.delete(args[0]);
        if (targets?.waiting.delete(args[0])) watch.observing -= 1;
        return Reflect.apply(unobserve, observer, args);
      },
    });
    proto.disconnect = new Proxy(proto.disconnect, {
      apply(disconnect, observer: IntersectionObserver, args: []) {
        const targets = observedBy.get(observer);
        if (targets) {
          watch.observing -= targets.waiting.size;
          targets.waiting.clear();
          targets.observed.clear();
        }
        return Reflect.apply(disconnect, observer, args);
      },
    });
  }
  const seen = new WeakSet<Element>();
  const isScript = (script: HTMLScriptElement): boolean => {
    const type = script.type.trim().toLowerCase();
    return script.src !== '' && !script.noModule && (type === '' || type === 'module' || type.includes('javascript') || type.includes('ecmascript'));
  };
  const loads = (element: Element): boolean => {
    if (element instanceof HTMLScriptElement) return isScript(element);
    if (element instanceof HTMLLinkElement) return element.href !== '' && !element.disabled && element.relList.contains('stylesheet') && !element.relList.contains('alternate');
    if (element instanceof HTMLImageElement) return (element.currentSrc !== '' || element.src !== '' || element.srcset !== '') && !element.complete && element.loading !== 'lazy';
    return false;
  };
  const track = (element: Element): void => {
    // An image counts again when its src changes (a lazy loader swapping data-src in); the others once.
    if ((seen.has(element) && !(element instanceof HTMLImageElement)) || !loads(element)) return;
    seen.add(element);
    const end = begin();
    element.addEventListener('load', end, { once: true });
    element.addEventListener('error', end, { once: true });
  };
  new MutationObserver((mutations) => {
    watch.lastMutation = performance.now();
    for (const mutation of mutations) {
      if (mutation.type === 'attributes' && mutation.target instanceof HTMLImageElement && (mutation.attributeName === 'src' || mutation.attributeName === 'srcset')) track(mutation.target);
      for (const node of Array.from(mutation.addedNodes)) {
        if (!(node instanceof Element)) continue;
        track(node);
        node.querySelectorAll('script[src], link[rel~="stylesheet"], img').forEach(track);
      }
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

/** The init script as source, for CapturePage.addInitScript. */
export const settleWatchSource = (): string => `(${watchSettling.toString()})(${JSON.stringify(SETTLE_WATCH_KEY)}, ${WATCHED_FRAMES}, ${FRAME_LOOP_MS});`;
