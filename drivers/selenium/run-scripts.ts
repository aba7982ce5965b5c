import type { WebDriver } from 'selenium-webdriver';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Deadline } from '../playwright/deadline.js';
import { errorText } from '../playwright/error-text.js';
import { addScriptTag } from '../shared/add-script-tag.js';
import { inPage } from './in-page.js';

/**
 * Runs the spec's script URLs in order, then the inline script, after the page loaded, each as a
 * classic <script> element in the page's own world (as drivers/playwright/run-scripts.ts does with
 * addScriptTag). A script URL is waited for before the next one starts; a failing script is a warning.
 */
export async function runScripts(driver: WebDriver, spec: CaptureSpec, deadline: Deadline, warnings: string[]): Promise<void> {
  for (const url of spec.scripts) {
    deadline.check();
    try {
      await deadline.race(inPage(driver, addScriptTag, { url }), 'the script');
    } catch (error) {
      deadline.check();
      warnings.push(`Script ${url} did not run: ${errorText(error)}`);
    }
  }
  if (spec.scriptInline) {
    try {
      await deadline.race(inPage(driver, addScriptTag, { content: spec.scriptInline }), 'the script');
    } catch (error) {
      deadline.check();
      warnings.push(`The inline script did not run: ${errorText(error)}`);
    }
  }
}
