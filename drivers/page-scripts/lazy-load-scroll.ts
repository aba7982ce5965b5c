export interface LazyLoadScrollOptions {
  /** stop once this many CSS pixels were scrolled (the capture's max height), 0 = to the bottom */
  maxHeight: number;
  /** time budget in ms; the scroll stops when it runs out (the job's deadline) */
  budgetMs: number;
  /** the symbol name the scroll watch (full-page-init.ts) records under, when the driver installed it */
  watchKey: string;
}

export interface LazyLoadScrollResult {
  /** the document height it ended on */
  height: number;
  /** whether it scrolled: false when the scroll watch saw nothing on the page that reacts to scrolling */
  scrolled: boolean;
}

/**
 * Scrolls through the document one viewport at a time so lazy images and infinite-scroll sections load
 * before a full-page capture, then returns to the top. Runs in the page; self-contained.
 * `loading="lazy"` images need no scroll: the full-page init script made them eager as they were added.
 * Finally waits for started images to complete.
 * The stepping is skipped when the scroll watch ran and saw no IntersectionObserver and no scroll
 * listener, and no onscroll handler is set: nothing on such a page can change when scrolled, and the
 * steps (100 ms each) would make a full-page capture of a 5000 px page ~0.9 s slower for nothing.
 * Without the watch (a driver that cannot install it), it always steps.
 */
export async function lazyLoadScroll(options: LazyLoadScrollOptions): Promise<LazyLoadScrollResult> {
  // 100 ms per viewport step gives IntersectionObserver callbacks and image requests time to start,
  // while a 20 000 px page still scrolls in about two seconds.
  const STEP_PAUSE_MS = 100;
  // A final pause at the bottom lets the last batch of requests start before we scroll back.
  const SETTLE_MS = 250;
  const started = Date.now();
  const limit = (): number => {
    const height = Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0);
    return options.maxHeight > 0 ? Math.min(height, options.maxHeight) : height;
  };
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const watch = (window as unknown as Record<symbol, { reactive: boolean } | undefined>)[Symbol.for(options.watchKey)];
  const reactive = watch === undefined || watch.reactive || window.onscroll !== null || document.onscroll !== null || (document.body?.onscroll ?? null) !== null;
  let position = 0;
  while (reactive && position + window.innerHeight < limit() && Date.now() - started < options.budgetMs) {
    position += window.innerHeight;
    window.scrollTo(0, position);
    await sleep(STEP_PAUSE_MS);
  }
  if (position > 0) {
    if (Date.now() - started < options.budgetMs) await sleep(Math.min(SETTLE_MS, options.budgetMs));
    window.scrollTo(0, 0);
  }
  // Then wait (within the budget) for the images still loading: a full-page capture taken now would show
  // them half-loaded. Their load/error events end the wait at once (polling would add up to a period);
  // images that start meanwhile (a loader reacting to the last scroll) are waited for in the next turn.
  const incomplete = (): HTMLImageElement[] => Array.from(document.images).filter((image) => !image.complete);
  const settled = (image: HTMLImageElement): Promise<void> =>
    new Promise((resolve) => {
      image.addEventListener('load', () => resolve(), { once: true });
      image.addEventListener('error', () => resolve(), { once: true });
    });
  for (let images = incomplete(); images.length > 0 && Date.now() - started < options.budgetMs; images = incomplete()) {
    await Promise.race([Promise.all(images.map(settled)), sleep(options.budgetMs - (Date.now() - started))]);
  }
  return { height: limit(), scrolled: position > 0 };
}
