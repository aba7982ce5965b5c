/**
 * How much of the page a full-page capture takes, in CSS pixels: the page's height, cut at the
 * request's `max_height` (0 = no cut) and at the operator's maximum (SHOTFARM_MAX_PAGE_HEIGHT). A cut
 * the request did not ask for is a warning naming the setting, so the client knows why the picture ends.
 */
export function capturedHeight(pageHeight: number, requestedMax: number, maxPageHeight: number, warnings: string[]): number {
  const wanted = requestedMax > 0 ? Math.min(pageHeight, requestedMax) : pageHeight;
  if (wanted <= maxPageHeight) return wanted;
  const warning = `The page is ${pageHeight} px tall; the capture stops at ${maxPageHeight} px, the farm's maximum (SHOTFARM_MAX_PAGE_HEIGHT).`;
  if (!warnings.includes(warning)) warnings.push(warning); // once, however many shots a capture takes
  return maxPageHeight;
}
