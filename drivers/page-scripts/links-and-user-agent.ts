/**
 * What a record tells about the page after its shots, read in one round trip (every capture pays for
 * it): absolute http(s) URLs of every link in the rendered DOM (a[href], area[href]), de-duplicated, in
 * document order (`element.href` is already resolved against the document base URL), and the User-Agent
 * the page saw. Runs in the page; self-contained.
 */
export function linksAndUserAgent(): { links: string[]; userAgent: string } {
  const seen = new Set<string>();
  for (const element of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const href = (element as HTMLAnchorElement | HTMLAreaElement).href;
    if (/^https?:\/\//i.test(href)) seen.add(href);
  }
  return { links: Array.from(seen), userAgent: navigator.userAgent };
}
