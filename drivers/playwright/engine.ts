import type { BrowserName } from '../../core/capture-spec.js';

/** The browser engine Playwright drives; it decides which protocol features exist. */
export type EngineName = 'chromium' | 'firefox';

/** What a launched browser is, as far as a capture needs to know. */
export interface Engine {
  readonly browser: BrowserName;
  readonly name: EngineName;
  /** chromium standing in for brave: shields-style blocking, Brave brands, navigator.brave */
  readonly braveEmulation: boolean;
  /** firefox only: launched with the dark-theme pref (dark mode cannot change per context there) */
  readonly launchedDark: boolean;
}
