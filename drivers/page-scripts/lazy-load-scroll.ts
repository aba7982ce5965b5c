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
  /** whether it scrolled (the window or a pane): false when the scroll watch saw nothing on the page that reacts to scrolling */
  scrolled: boolean;
}

/**
 * Scrolls through the document one viewport at a time, and every inner scrolling pane one box at a time
 * in parallel, so lazy images and infinite-scroll sections load before a full-page capture, then puts the
 * window and every pane back at the top. Runs in the page; self-contained.
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
  const inBudget = (): boolean => Date.now() - started < options.budgetMs;
  // The inner scrolling panes (overflow auto or scroll, content taller than their box: a feed, a chat
  // log, an app's main column) hold lazy content the window's scroll never reaches. Each is walked one
  // box at a time beside the window, in parallel and under the same budget; at most MAX_PANES, the tallest.
  const MAX_PANES = 20;
  // Only a pane's box shows in the capture; 30 steps (3 s) load what a person scrolling it would see first,
  // and keep a virtualised list of 10,000 rows from taking the whole deadline.
  const MAX_PANE_STEPS = 30;
  const panes = reactive
    ? Array.from(document.querySelectorAll<HTMLElement>('body *'))
        .filter((element) => {
          if (element.clientHeight < 20 || element.scrollHeight <= element.clientHeight + 1) return false;
          const overflow = getComputedStyle(element).overflowY;
          return overflow === 'auto' || overflow === 'scroll';
        })
        .sort((a, b) => b.scrollHeight - a.scrollHeight)
        .slice(0, MAX_PANES)
    : [];
  let position = 0;
  const walkWindow = async (): Promise<void> => {
    while (reactive && position + window.innerHeight < limit() && inBudget()) {
      position += window.innerHeight;
      window.scrollTo(0, position);
      await sleep(STEP_PAUSE_MS);
    }
  };
  const walkPane = async (pane: HTMLElement): Promise<void> => {
    // A pane that grows as it is scrolled (an endless feed) stops where the capture's height would.
    const paneLimit = (): number => (options.maxHeight > 0 ? Math.min(pane.scrollHeight, options.maxHeight) : pane.scrollHeight);
    for (let step = 0; step < MAX_PANE_STEPS && pane.isConnected && pane.scrollTop + pane.clientHeight < paneLimit() - 1 && inBudget(); step += 1) {
      const before = pane.scrollTop;
      pane.scrollTop = before + pane.clientHeight;
      if (pane.scrollTop === before) break;
      await sleep(STEP_PAUSE_MS);
    }
  };
  await Promise.all([walkWindow(), ...panes.map(walkPane)]);
  const panesScrolled = panes.filter((pane) => pane.scrollTop > 0);
  if (position > 0 || panesScrolled.length > 0) {
    if (inBudget()) await sleep(Math.min(SETTLE_MS, options.budgetMs));
    window.scrollTo(0, 0);
    for (const pane of panesScrolled) pane.scrollTop = 0;
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
  return { height: limit(), scrolled: position > 0 || panesScrolled.length > 0 };
}
