/**
 * Whether the page shows anything a person would call content: a visible text that is not only blanks,
 * or a visible image-like element (a picture, a canvas, a video, a frame, a form control), or an element
 * painted with a background picture (a gradient is not one). Stops at the first it finds, so a page with text near its top answers
 * after a handful of nodes; only a nearly empty page is walked through. Part of the blank check
 * (drivers/shared/blank-check.ts). Runs in the page: self-contained.
 */
export function hasVisibleContent(): boolean {
  const MEDIA = 'img, svg, canvas, video, iframe, object, embed, input, textarea, select, picture';
  /** How many elements are asked for a background image before the page counts as showing none. */
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
  const all = [document.documentElement, ...Array.from(root.querySelectorAll('*')).slice(0, MAX_BACKGROUND_LOOKS)];
  // A picture painted as a background (a hero image) is content; a gradient is not.
  return all.some((element) => element !== null && /url\(/.test(getComputedStyle(element).backgroundImage) && shown(element));
}
