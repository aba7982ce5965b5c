/**
 * The generic overlay hide of hide_popups: what runs when the consent engine (consent-engine.ts, with its
 * maintained rules for the consent platforms) recognised nothing on the page, or could not decline it.
 * Runs inside the page (page.evaluate / Selenium executeScript): self-contained, no imports, no closures
 * over module scope, returns plain JSON.
 *
 * A heuristic for home-made banners and modals: a fixed or sticky element that mentions cookies, consent,
 * privacy or a newsletter, or that is a large overlay (a modal backdrop) above the content. It then lifts
 * the scroll lock such dialogs put on <html>/<body>. Returns the number of elements hidden.
 */
export function hidePopups(): number {
  // Words a consent or subscription prompt almost always contains, in the languages most sites use.
  const WORDS = /cookie|consent|gdpr|privacy|datenschutz|einwillig|newsletter|subscribe|accept all|akzeptieren|accepter/i;
  // An overlay covering at least 30% of the viewport is a modal or backdrop, not page furniture such as
  // a sticky header (typically under 15% of the height).
  const LARGE_OVERLAY_SHARE = 0.3;
  const viewportArea = Math.max(1, window.innerWidth * window.innerHeight);
  let hidden = 0;
  for (const element of Array.from(document.body?.querySelectorAll('*') ?? [])) {
    if (!(element instanceof HTMLElement) || element.dataset.shotfarmHidden === '1') continue;
    const style = getComputedStyle(element);
    if (style.position !== 'fixed' && style.position !== 'sticky') continue;
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = element.getBoundingClientRect();
    const share = (box.width * box.height) / viewportArea;
    const isHeaderOrNav = element.matches('header, nav, [role="navigation"], [role="banner"]');
    if ((WORDS.test(element.innerText ?? '') && !isHeaderOrNav) || share >= LARGE_OVERLAY_SHARE) {
      element.style.setProperty('display', 'none', 'important');
      element.dataset.shotfarmHidden = '1';
      hidden += 1;
    }
  }
  for (const root of [document.documentElement, document.body]) {
    if (!root) continue;
    if (getComputedStyle(root).overflow === 'hidden' || getComputedStyle(root).overflowY === 'hidden') {
      root.style.setProperty('overflow', 'visible', 'important');
    }
  }
  return hidden;
}
