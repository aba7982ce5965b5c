import type { SettleWatch } from './settle-watch.js';

export interface WaitSettledOptions {
  /** give up after this many ms (the settle cap, or what the job's deadline leaves) */
  capMs: number;
  /** how long nothing may have happened: no request started or ended (and with `visual`, no DOM change) */
  quietMs: number;
  /** with `visual`: consecutive animation frames with the same layout */
  frames: number;
  /** settled (true): requests, fonts, visible images, finite animations, DOM and layout; networkidle (false): requests only */
  visual: boolean;
  /** the symbol name the settle watch (settle-watch.ts) records under, when the driver installed it */
  watchKey: string;
  /** with `visual`: how long an IntersectionObserver's first callback is waited for after its observe() */
  observerFirstCallMs: number;
}

export interface WaitSettledResult {
  settled: boolean;
  /** ms spent in the page */
  waitedMs: number;
  /** what still kept the page busy when the cap passed (empty when settled) */
  busy: string[];
  /** whether the settle watch was there (false: requests were judged by Resource Timing alone) */
  watched: boolean;
}

/**
 * Waits in the page until it has settled, at most `capMs`; self-contained. Checked once per animation
 * frame (a frame is ~16 ms; a page whose frames stop, hidden or throttled, is checked every 100 ms):
 * - no request in flight (the settle watch's count) and none started or ended for `quietMs`: a module
 *   loader's next request, or a client-rendered list's fetch, starts within milliseconds of the last one
 *   ending, so a short window bridges the chain; Resource Timing entries (font files, CSS images) count
 *   as activity too;
 * - with `visual`: document.fonts not loading; every image that can show is complete (not-yet-loaded lazy
 *   images below the viewport cannot, and never load without a scroll); no finite animation or transition
 *   running that ends within the cap (infinite ones, spinners, never end); no DOM change for `quietMs`;
 *   the page's scroll size and the body's box the same for `frames` frames in a row.
 * On a page that already settled this costs `frames` + 1 frames, or what is left of the quiet window
 * after the last activity, whichever is longer.
 */
export async function waitSettled(options: WaitSettledOptions): Promise<WaitSettledResult> {
  const started = performance.now();
  const watch = (window as unknown as Record<symbol, (Partial<SettleWatch> & Pick<SettleWatch, 'pending' | 'lastRequest' | 'lastMutation'>) | undefined>)[Symbol.for(options.watchKey)];
  // Without the watch, activity before this call is unknown: the quiet window starts now.
  let lastMutation = watch ? 0 : started;
  let lastResource = watch ? 0 : started;
  const noteResources = (entries: PerformanceEntryList): void => {
    for (const entry of entries) lastResource = Math.max(lastResource, (entry as PerformanceResourceTiming).responseEnd);
  };
  // The entries so far are read at once (an observer's buffered delivery may come after the first frame).
  noteResources(performance.getEntriesByType('resource'));
  const resources = new PerformanceObserver((list) => noteResources(list.getEntries()));
  resources.observe({ type: 'resource' });
  const mutations = watch ? null : new MutationObserver(() => (lastMutation = performance.now()));
  mutations?.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });

  const nextFrame = (): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, 100);
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  const layout = (): string => {
    const root = document.documentElement;
    const body = document.body?.getBoundingClientRect();
    return `${root.scrollWidth}x${root.scrollHeight} ${body ? `${body.width}x${body.height}@${body.x},${body.y}` : ''}`;
  };
  const showable = (image: HTMLImageElement): boolean => {
    if (image.loading !== 'lazy') return true;
    const box = image.getBoundingClientRect();
    return box.bottom >= 0 && box.right >= 0 && box.top <= window.innerHeight && box.left <= window.innerWidth;
  };
  const busyNow = (now: number): string[] => {
    const busy: string[] = [];
    if (watch && watch.pending > 0) busy.push(`${watch.pending} request${watch.pending === 1 ? '' : 's'} in flight`);
    if (!options.visual) return busy;
    if (document.fonts && document.fonts.status === 'loading') busy.push('web fonts loading');
    const images = Array.from(document.images).filter((image) => !image.complete && showable(image)).length;
    if (images > 0) busy.push(`${images} image${images === 1 ? '' : 's'} loading`);
    // An observer's first callback decides what a lazy loader loads; one that has not run within
    // observerFirstCallMs of its observe() (a page whose frames have stopped never runs it) holds nothing.
    const observing = watch?.observing ?? 0;
    if (observing > 0 && now - (watch?.lastObserve ?? 0) < options.observerFirstCallMs)
      busy.push(`${observing} intersection observer target${observing === 1 ? '' : 's'} not yet reported to the page`);
    const capLeft = options.capMs - (now - started);
    const animations = (typeof document.getAnimations === 'function' ? document.getAnimations() : []).filter((animation) => {
      if (animation.playState !== 'running' || !animation.effect) return false;
      const timing = animation.effect.getComputedTiming();
      const end = Number(timing.endTime);
      const at = Number(timing.localTime ?? 0);
      return Number.isFinite(end) && end - at <= capLeft;
    }).length;
    if (animations > 0) busy.push(`${animations} animation${animations === 1 ? '' : 's'} running`);
    return busy;
  };

  // The frames the watch saw since load, when it has them; the wait takes the sampling over from here.
  const frames: number[] = watch?.frames ? [...watch.frames] : [];
  let lastLayout = options.visual ? (watch?.frames ? (watch.layout ?? '') : layout()) : '';
  let lastLayoutChange = watch?.frames ? (watch.lastLayoutChange ?? 0) : 0;
  if (watch?.frames) watch.framesTaken = true;
  try {
    // The first look is at once, not after a frame: a page that settled while the driver learned of `load` is done.
    for (let look = 0; ; look += 1) {
      if (look > 0) {
        await nextFrame();
        frames.push(performance.now());
      }
      const now = performance.now();
      if (options.visual) {
        const current = layout();
        if (current !== lastLayout) {
          lastLayout = current;
          lastLayoutChange = now;
        }
      }
      const lastActivity = Math.max(watch ? watch.lastRequest : 0, lastResource, options.visual ? Math.max(watch?.lastMutation ?? 0, lastMutation, lastLayoutChange) : 0);
      const busy = busyNow(now);
      const quiet = now - lastActivity >= options.quietMs;
      // Frames after the last activity: work the page chained to it (an observer's callback, a load handler's
      // animation frame, a font the new style asks for) has had its turns of the event loop and of rendering.
      const framesSince = frames.filter((at) => at > lastActivity).length;
      if (busy.length === 0 && quiet && (!options.visual || framesSince >= options.frames)) {
        return { settled: true, waitedMs: Math.round(now - started), busy: [], watched: watch !== undefined };
      }
      if (now - started >= options.capMs) {
        if (busy.length === 0) busy.push(options.visual ? 'the page kept changing' : 'requests kept starting');
        return { settled: false, waitedMs: Math.round(now - started), busy, watched: watch !== undefined };
      }
    }
  } finally {
    resources.disconnect();
    mutations?.disconnect();
  }
}
