/**
 * Absolute http(s) URLs of every link in the rendered DOM (a[href], area[href]), de-duplicated, in
 * document order. `element.href` is already resolved against the document base URL. Runs in the page.
 */
export function collectLinks(): string[] {
  const seen = new Set<string>();
  for (const element of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const href = (element as HTMLAnchorElement | HTMLAreaElement).href;
    if (/^https?:\/\//i.test(href)) seen.add(href);
  }
  return Array.from(seen);
}
