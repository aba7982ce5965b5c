/**
 * Whether the page shows anything at all: a visible text that is not only blanks, a visible image-like
 * element (a picture, a canvas, a video, a frame, a form control), or a visible element painted with a
 * colour or a picture of its own (a hero, a card, a skeleton placeholder). The page's own background (of
 * <html> and <body>) is not content unless it is a picture: a page of one gradient shows nothing. Stops at
 * the first it finds, so a page with text near its top answers after a handful of nodes; only a nearly
 * empty page is walked through. Part of the blank check (drivers/shared/blank-check.ts). Runs in the page:
 * self-contained.
 */
export function hasVisibleContent(): boolean {
  const MEDIA = 'img, svg, canvas, video, iframe, object, embed, input, textarea, select, picture';
  /** How many elements are asked for a painted background before the page counts as showing none. */
  const MAX_BACKGROUND_LOOKS = 5_000;
  const shown = (element: Element): boolean => {
    const box = element.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return false;
    const check = (element as Element & { checkVisibility?: (o: Record<string, boolean>) => boolean }).checkVisibility;
    return typeof check === 'function'
      ? check.call(element, { visibilityProperty: true, checkVisibilityCSS: true, opacityProperty: true, checkOpacity: true })
      : getComputedStyle(element).visibility !== 'hidden';
  };
  const root = document.body ?? document.documentElement;
  if (!root) return false;
  const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node !== null; node = texts.nextNode()) {
    const parent = node.parentElement;
    if (parent && !/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(parent.tagName) && (node.textContent ?? '').trim() !== '' && shown(parent)) return true;
  }
  for (const element of Array.from(document.querySelectorAll(MEDIA))) if (shown(element)) return true;
  const painted = (element: Element): boolean => {
    const style = getComputedStyle(element);
    if (/url\(/.test(style.backgroundImage)) return true;
    if (element === document.documentElement || element === document.body) return false;
    return style.backgroundImage !== 'none' || !/^(transparent|rgba\(\d+, \d+, \d+, 0\))$/.test(style.backgroundColor);
  };
  const all = [document.documentElement, ...Array.from(root.querySelectorAll('*')).slice(0, MAX_BACKGROUND_LOOKS)];
  return all.some((element) => element !== null && painted(element) && shown(element));
}
