/**
 * Hides cookie banners, consent managers, newsletter modals and other overlays.
 * Runs inside the page (page.evaluate / Selenium executeScript): self-contained, no imports, no
 * closures over module scope, returns plain JSON.
 *
 * Two passes, because neither alone is enough:
 * 1. CSS for the known consent-manager containers (OneTrust, Cookiebot, Quantcast, Didomi, Usercentrics,
 *    TrustArc, Osano, CookieYes, cookieconsent, Funding Choices, Sourcepoint…), which load late and often
 *    re-insert themselves, so a stylesheet keeps them hidden when they come back.
 * 2. A heuristic for home-made banners: a fixed or sticky element that mentions cookies/consent/privacy,
 *    or that is a large overlay (a modal backdrop) above the content.
 * It then lifts the scroll lock such dialogs put on <html>/<body>. Returns the number of elements hidden.
 */
export function hidePopups(): number {
  const STYLE_ID = 'shotfarm-hide-popups';
  const KNOWN_SELECTORS = [
    '#onetrust-consent-sdk', '#onetrust-banner-sdk', '#CybotCookiebotDialog', '#CybotCookiebotDialogBodyUnderlay',
    '#qc-cmp2-container', '.qc-cmp2-container', '#didomi-host', '#usercentrics-root', '#truste-consent-track',
    '.truste_box_overlay', '.osano-cm-window', '#cookie-law-info-bar', '.cky-consent-container', '.cc-window',
    '.cc-banner', '.fc-consent-root', '[id^="sp_message_container"]', '#cmpbox', '#cmpbox2', '.cookie-notice',
    '#cookie-notice', '#cookie-banner', '.cookie-banner', '#cookieConsent', '.cookie-consent', '#gdpr-banner',
    '.gdpr-banner', '[aria-label="cookieconsent"]', '[class*="newsletter-popup"]', '.modal-backdrop',
  ];
  if (!document.getElementById(STYLE_ID)) {
    const style = document.createElement('style');
    style.id = STYLE_ID;
    style.textContent = `${KNOWN_SELECTORS.join(',')}{display:none !important;visibility:hidden !important}`;
    (document.head ?? document.documentElement).appendChild(style);
  }

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
