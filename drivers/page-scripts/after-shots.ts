import { linksAndUserAgent } from './links-and-user-agent.js';
import { hasVisibleContent } from './visible-content.js';

/** What the pipeline reads from the page once its shots are taken. */
export interface AfterShots {
  /** whether anything is visible (hasVisibleContent), or null when the blank check does not look */
  visible: boolean | null;
  links: string[];
  userAgent: string;
}

/**
 * The blank check's look for visible content (visible-content.ts) and the record's links and User-Agent
 * (links-and-user-agent.ts) as one page function, so a capture reads the page after its shots in one round
 * trip instead of two. Built from the two self-contained functions' sources, as every driver ships a page
 * function (its source), so each stays the one owner of what it reads. Runs in the page; self-contained.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- composed from this module's own page functions, never from input
export const readAfterShots = new Function('lookForContent', `return { visible: lookForContent ? (${hasVisibleContent.toString()})() : null, ...(${linksAndUserAgent.toString()})() };`) as (
  lookForContent: boolean,
) => AfterShots;
// The name the fake page (test/support) and a stack trace know it by.
Object.defineProperty(readAfterShots, 'name', { value: 'readAfterShots' });
