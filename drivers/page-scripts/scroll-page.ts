/**
 * The `scroll` step without a selector: `value` is a pixel offset from the top, or `bottom`.
 * Runs in the page; self-contained. Returns the resulting scroll position.
 */
export function scrollPage(value: string): number {
  const bottom = Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0);
  const target = value.trim().toLowerCase() === 'bottom' ? bottom : Number.parseFloat(value);
  window.scrollTo(0, Number.isFinite(target) ? target : 0);
  return window.scrollY;
}
