/**
 * The class names, ids and link targets used in the document: what cosmetic filter rules are matched
 * against (as @ghostery/adblocker-content's extractFeaturesFromDOM gathers them). Runs in the page;
 * self-contained.
 */
export function domFeatures(): { classes: string[]; ids: string[]; hrefs: string[] } {
  const classes = new Set<string>();
  const ids = new Set<string>();
  const hrefs = new Set<string>();
  for (const element of Array.from(document.querySelectorAll('[id],[class],a[href]'))) {
    if (element.id) ids.add(element.id);
    for (const name of Array.from(element.classList)) classes.add(name);
    const href = element.getAttribute('href');
    if (element.tagName === 'A' && href) hrefs.add(href);
  }
  return { classes: Array.from(classes), ids: Array.from(ids), hrefs: Array.from(hrefs) };
}
