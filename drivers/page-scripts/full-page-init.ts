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
 * Init script for full-page captures, installed before any page script runs, in every frame; self-contained.
 *
 * 1. Lazy images load with the page: every <img>/<iframe loading="lazy"> is made eager as the parser (or
 *    a script) adds it, so the images a full page shows load while the page loads, in parallel, instead
 *    of after it (the lazy-load scroll used to switch them, then wait ~100 ms for them here).
 * 2. It notes whether the page can react to being scrolled, so that the lazy-load scroll (one viewport
 *    at a time, with pauses) runs only on pages where it can change the picture.
 * A page learns that it was scrolled only through an IntersectionObserver or a `scroll`/`scrollend`
 * listener on the window, the document or an inner pane (onscroll properties are read at scroll time instead); native
 * `loading="lazy"` needs no scroll (made eager above).
 *
 * The methods are wrapped in Proxies: a Proxy of a native function still prints as `[native code]` and
 * keeps its name and length, so fingerprinting scripts see the browser's own functions.
 */
export function prepareFullPage(key: string): void {
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
  const makeEager = (node: Node): void => {
    if ((node instanceof HTMLImageElement || node instanceof HTMLIFrameElement) && node.getAttribute('loading') === 'lazy') node.setAttribute('loading', 'eager');
  };
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      if (mutation.type === 'attributes') makeEager(mutation.target);
      for (const node of Array.from(mutation.addedNodes)) {
        makeEager(node);
        if (node instanceof Element) node.querySelectorAll('img[loading="lazy"], iframe[loading="lazy"]').forEach(makeEager);
      }
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['loading'] });
  EventTarget.prototype.addEventListener = new Proxy(EventTarget.prototype.addEventListener, {
    apply(add, target: unknown, args: unknown[]) {
      // Any target: the window's and the document's, and an inner pane's (a feed, a virtualised list), which the lazy-load scroll walks too.
      if (args[0] === 'scroll' || args[0] === 'scrollend') noteReaction();
      return Reflect.apply(add, target, args);
    },
  });
}

/** The init script as source, for drivers that install init scripts as text (CDP addScriptToEvaluateOnNewDocument). */
export const fullPageInitSource = (): string => `(${prepareFullPage.toString()})(${JSON.stringify(SCROLL_WATCH_KEY)});`;
