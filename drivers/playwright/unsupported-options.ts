import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Engine } from './engine.js';

/**
 * The options this engine cannot honour for this spec, as the plain sentences shown on the record.
 * Known limits are listed here, in one place, so that the README table and the driver agree; options
 * that fail at run time (a missing selector, an unreachable script) add their own warnings where they run.
 */
export function unsupportedOptionWarnings(spec: CaptureSpec, engine: Engine): string[] {
  const warnings: string[] = [];
  if (engine.name === 'firefox') {
    if (spec.device.mobile) {
      warnings.push('device_mobile is not emulated on firefox: WebDriver BiDi has no mobile viewport emulation, so the page was laid out as on a desktop.');
    }
    if (spec.device.touch) {
      warnings.push('device_touch is not emulated on firefox: WebDriver BiDi has no touch emulation, so the page saw a mouse, not a touch screen.');
    }
    if (spec.referer) {
      warnings.push(
        "On firefox the referer is sent as a Referer request header (also on the page's sub-resources); document.referrer stays empty because WebDriver BiDi navigation takes no referrer.",
      );
    }
    if (spec.dark !== engine.launchedDark) {
      warnings.push(
        spec.dark
          ? 'dark was requested but this firefox was launched without dark mode (on firefox it is a launch option); the page was captured in light mode.'
          : 'This firefox was launched in dark mode (a launch option on firefox), so the page was captured in dark mode although dark was not requested.',
      );
    }
  }
  return warnings;
}
