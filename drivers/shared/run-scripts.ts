import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Deadline } from './deadline.js';
import { errorText } from './error-text.js';

/** Adds a classic <script> (a URL, waited for until it has loaded and run, or inline content) to the page. */
export type AddScriptTag = (source: { url?: string; content?: string }) => Promise<void>;

/**
 * Runs the spec's script URLs in order, then the inline script, after the page loaded. Each is added
 * as a classic <script> element, so it runs in the page's own world exactly as the site's scripts do;
 * each URL is waited for until it has loaded, which keeps the order; adding takes no timeout, so the
 * deadline races it. A failing script is a warning.
 */
export async function runScripts(addScriptTag: AddScriptTag, spec: CaptureSpec, deadline: Deadline, warnings: string[]): Promise<void> {
  for (const url of spec.scripts) {
    deadline.check();
    try {
      await deadline.race(addScriptTag({ url }), 'the script');
    } catch (error) {
      deadline.check();
      warnings.push(`Script ${url} did not run: ${errorText(error)}.`);
    }
  }
  if (spec.scriptInline) {
    try {
      await deadline.race(addScriptTag({ content: spec.scriptInline }), 'the script');
    } catch (error) {
      deadline.check();
      warnings.push(`The inline script did not run: ${errorText(error)}.`);
    }
  }
}
