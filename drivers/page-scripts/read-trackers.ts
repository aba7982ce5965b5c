import type { TrackerSpec } from '../../core/capture-spec.js';

/** What one tracker read at one shot; the driver adds the shot number. */
export interface TrackerReading {
  found: 0 | 1;
  value?: string;
  name: string;
}

/**
 * Reads every tracker once (one shot). Runs in the page; self-contained.
 * Value types: text (innerText), html (outerHTML), attribute (attribute `input`), value (form control
 * value), count (number of matches, always reported), exists ("true"/"false", always reported).
 * Name types: static (`name`), text (the element's text), attribute (its attribute `input`).
 * An invalid selector reads as "not found" rather than failing the capture.
 */
export function readTrackers(trackers: TrackerSpec[]): TrackerReading[] {
  return trackers.map((tracker) => {
    let matches: Element[] = [];
    try {
      matches = Array.from(document.querySelectorAll(tracker.selector));
    } catch {
      matches = [];
    }
    const first = matches[0];
    const textOf = (element: Element): string => (element instanceof HTMLElement ? element.innerText : (element.textContent ?? '')).trim();
    let name = tracker.name;
    if (first && tracker.name_type === 'text') name = textOf(first);
    if (first && tracker.name_type === 'attribute') name = first.getAttribute(tracker.input) ?? tracker.name;

    if (tracker.value_type === 'count') return { found: matches.length > 0 ? 1 : 0, value: String(matches.length), name };
    if (tracker.value_type === 'exists') return { found: matches.length > 0 ? 1 : 0, value: String(matches.length > 0), name };
    if (!first) return { found: 0, name };
    let value: string | null = null;
    if (tracker.value_type === 'text') value = textOf(first);
    if (tracker.value_type === 'html') value = first.outerHTML;
    if (tracker.value_type === 'attribute') value = first.getAttribute(tracker.input);
    if (tracker.value_type === 'value') {
      value = 'value' in first ? String((first as HTMLInputElement).value) : null;
    }
    return value === null ? { found: 0, name } : { found: 1, value, name };
  });
}
