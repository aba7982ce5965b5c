/**
 * Where the page keeps what the watch saw. A registered symbol, not a window property with a name: it
 * collides with nothing a page defines and does not show in `Object.keys(window)`.
 */
export const SCROLL_WATCH_KEY = 'shotfarm.scrollWatch';

/** What the watch records in the page (lazy-load-scroll.ts reads it). */
export interface ScrollWatch {
  /** the page asked to be told about scrolling or visibility: an IntersectionObserver or a scroll listener */
  reactive: boolean;
}

/**
 * Init script for full-page captures: notes whether the page can react to being scrolled, so that the
 * lazy-load scroll (one viewport at a time, with pauses) runs only on pages where it can change the picture.
 * A page learns that it was scrolled only through an IntersectionObserver or a `scroll`/`scrollend`
 * listener on the window or the document (onscroll properties are read at scroll time instead); native
 * `loading="lazy"` needs no scroll (the scroll script makes those eager). Installed before any page
 * script runs, in every frame; self-contained.
 *
 * The methods are wrapped in Proxies: a Proxy of a native function still prints as `[native code]` and
 * keeps its name and length, so fingerprinting scripts see the browser's own functions.
 */
export function installScrollWatch(key: string): void {
  const watch: ScrollWatch = { reactive: false };
  Object.defineProperty(window, Symbol.for(key), { value: watch, configurable: true });
  const noteReaction = (): void => {
    watch.reactive = true;
  };
  if (typeof IntersectionObserver === 'function') {
    IntersectionObserver.prototype.observe = new Proxy(IntersectionObserver.prototype.observe, {
      apply(observe, observer, args) {
        noteReaction();
        return Reflect.apply(observe, observer, args);
      },
    });
  }
  EventTarget.prototype.addEventListener = new Proxy(EventTarget.prototype.addEventListener, {
    apply(add, target: unknown, args: unknown[]) {
      const scrollTarget = target === window || target === document || target === document.documentElement || target === document.body;
      if (scrollTarget && (args[0] === 'scroll' || args[0] === 'scrollend')) noteReaction();
      return Reflect.apply(add, target, args);
    },
  });
}

/** The watch as script source, for drivers that install init scripts as text (CDP addScriptToEvaluateOnNewDocument). */
export const scrollWatchSource = (): string => `(${installScrollWatch.toString()})(${JSON.stringify(SCROLL_WATCH_KEY)});`;
