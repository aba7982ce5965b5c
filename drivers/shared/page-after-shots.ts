import { readAfterShots } from '../page-scripts/after-shots.js';
import type { CapturePage } from './capture-adapter.js';
import { errorText } from './error-text.js';
import { withinOutputTime } from './output-timeout.js';

/** The page after its shots, as the record and the blank check use it. */
export interface PageAfterShots {
  /** whether anything is visible on the page; true when it was not looked at or could not be */
  visible: boolean;
  links: string[];
  userAgent: string;
}

/**
 * Reads the page after its shots in one round trip (page-scripts/after-shots.ts): the links and the
 * User-Agent every record has, and, when `lookForContent` (the blank check looks at this page), whether
 * anything is visible. A page that cannot be read is a warning for each part: no links, `userAgent` as
 * asked, and not called blank.
 */
export async function readPageAfterShots(page: CapturePage, lookForContent: boolean, askedUserAgent: string, warnings: string[]): Promise<PageAfterShots> {
  try {
    const read = await withinOutputTime(page.evaluate(readAfterShots, lookForContent), 'reading the page after its shots');
    return { visible: read.visible ?? true, links: read.links, userAgent: read.userAgent };
  } catch (error) {
    if (lookForContent) warnings.push(`The page could not be checked for visible content: ${errorText(error)}.`);
    warnings.push(`Links could not be collected: ${errorText(error)}.`);
    return { visible: true, links: [], userAgent: askedUserAgent };
  }
}
