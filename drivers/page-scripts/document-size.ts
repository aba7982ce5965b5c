/**
 * The document's full size in CSS pixels, computed exactly as Playwright computes it for
 * `fullPage` screenshots (the largest of scroll/offset/client sizes of <html> and <body>, because
 * quirks mode reports on <body> and standards mode on <html>). Keeping the same formula is what
 * makes the CDP full-page capture pixel-identical to Playwright's. Also the device scale, read in the
 * same round trip (CSS pixels to device pixels). Runs in the page; self-contained.
 */
export function documentSize(): { width: number; height: number; deviceScale: number } {
  const html = document.documentElement;
  const body = document.body ?? html;
  return {
    width: Math.max(body.scrollWidth, html.scrollWidth, body.offsetWidth, html.offsetWidth, body.clientWidth, html.clientWidth),
    height: Math.max(body.scrollHeight, html.scrollHeight, body.offsetHeight, html.offsetHeight, body.clientHeight, html.clientHeight),
    deviceScale: window.devicePixelRatio,
  };
}
