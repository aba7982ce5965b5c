/**
 * Adds a style sheet to the page as a constructed sheet (document.adoptedStyleSheets): no <style> element,
 * so a Content-Security-Policy that forbids inline styles does not apply to it, in Chromium and in Firefox
 * (the CSP fixture test/fixtures/site/readiness/csp.html shows it). `hide` are selectors to hide
 * (`visibility: hidden`, their box stays, as hide_selector says): each gets its own rule, so a selector the
 * browser refuses drops only its own, and comes back in `invalid`. `css` is added as written; rules the
 * browser cannot parse are skipped, as in any style sheet. Runs in the page: self-contained.
 */
export function adoptStyleSheet(arg: { css: string; hide: string[] }): { rules: number; invalid: string[] } {
  const invalid: string[] = [];
  const valid = arg.hide.filter((selector) => {
    try {
      document.querySelector(selector);
      return true;
    } catch {
      invalid.push(selector);
      return false;
    }
  });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`${valid.map((selector) => `${selector} { visibility: hidden !important; }`).join('\n')}\n${arg.css}`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return { rules: sheet.cssRules.length, invalid };
}
