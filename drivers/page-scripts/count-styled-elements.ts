/**
 * How many elements of the document the style rules of `css` select: for hide_ads, the elements its
 * cosmetic filters hide. The CSS is parsed by the browser itself, so a selector group it cannot parse is
 * left out here exactly as it is left out of the stylesheet that hides. Runs in the page; self-contained.
 */
export function countStyledElements(css: string): number {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  let count = 0;
  for (const rule of Array.from(sheet.cssRules)) {
    if (!(rule instanceof CSSStyleRule)) continue;
    try {
      count += document.querySelectorAll(rule.selectorText).length;
    } catch {
      // a selector the stylesheet accepts but querySelectorAll does not (a pseudo-element): it selects no element
    }
  }
  return count;
}
