/**
 * The identity a person's Chromium (or Brave) of the running version shows, for the browsers the farm runs
 * headless: the User-Agent without the `HeadlessChrome` token many sites answer with a block page, and the
 * client hints (Sec-CH-UA, navigator.userAgentData) that go with it. Both drivers send it with CDP's
 * Emulation.setUserAgentOverride (Playwright: playwright/person-identity.ts, Selenium: page-emulation.ts).
 */

/** One entry of the Sec-CH-UA brand list. */
export interface Brand {
  brand: string;
  version: string;
}

/** CDP's Emulation.UserAgentMetadata: what Sec-CH-UA-* and navigator.userAgentData say. */
export interface UserAgentMetadata {
  brands: Brand[];
  fullVersionList: Brand[];
  fullVersion: string;
  platform: string;
  platformVersion: string;
  architecture: string;
  model: string;
  mobile: boolean;
  bitness: string;
}

/** The User-Agent a person's browser of this version sends: the headless one without its `Headless` token. */
export function personUserAgent(headlessUserAgent: string): string {
  return headlessUserAgent.replace('HeadlessChrome/', 'Chrome/');
}

/**
 * The GREASE brand Chromium adds to its list so that sites cannot hard-code it, as Chromium computes it
 * from the major version (components/embedder_support/user_agent_utils.cc, GetGreasedUserAgentBrandVersion):
 * 156 gives "Not:A-Brand" version 8, 131 "Not_A Brand" 24. A test compares it with the running Chromium's.
 */
function greaseBrand(major: number): Brand {
  const chars = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
  const versions = ['8', '99', '24'];
  return { brand: `Not${chars[major % chars.length]}A${chars[(major + 1) % chars.length]}Brand`, version: versions[major % versions.length] as string };
}

/** Chromium's stable orders of a three-brand list, picked by the major version (GenerateBrandVersionList). */
const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const;

/**
 * The brand list of Chromium `version` (major or full), with `extraBrand` (Brave) when given, in the order
 * Chromium puts it: Chromium 156 sends `"Not:A-Brand";v="8", "Chromium";v="156"`, Brave 131
 * `"Brave";v="131", "Chromium";v="131", "Not_A Brand";v="24"`.
 */
export function chromiumBrands(version: string, extraBrand: string | null, full = false): Brand[] {
  const major = Number.parseInt(version, 10) || 0;
  const grease = greaseBrand(major);
  const greased = full ? { ...grease, version: `${grease.version}.0.0.0` } : grease;
  const chromium = { brand: 'Chromium', version };
  if (extraBrand === null) {
    const list: Brand[] = [];
    list[major % 2] = greased;
    list[(major + 1) % 2] = chromium;
    return list;
  }
  const order = ORDERS[major % ORDERS.length] as readonly [number, number, number];
  const list: Brand[] = [];
  list[order[0]] = greased;
  list[order[1]] = chromium;
  list[order[2]] = { brand: extraBrand, version };
  return list;
}

/** The platform fields of the client hints, as the User-Agent's platform token says them. */
function platformOf(userAgent: string): Pick<UserAgentMetadata, 'platform' | 'architecture' | 'bitness'> {
  const platform = /Windows/.test(userAgent) ? 'Windows' : /Android/.test(userAgent) ? 'Android' : /Mac OS X/.test(userAgent) ? 'macOS' : /CrOS/.test(userAgent) ? 'Chrome OS' : 'Linux';
  const arm = /aarch64|arm/i.test(userAgent) && !/Intel/.test(userAgent);
  return { platform, architecture: arm ? 'arm' : 'x86', bitness: /x86_64|x64|Win64|aarch64|arm64/i.test(userAgent) ? '64' : '32' };
}

/**
 * The client hints of a person's Chromium `fullVersion` (Browser.getVersion's product: 156.0.8078.108)
 * sending `userAgent`, with `extraBrand` (Brave) when the browser shows one.
 */
export function userAgentMetadata(userAgent: string, fullVersion: string, extraBrand: string | null, mobile: boolean): UserAgentMetadata {
  const major = fullVersion.split('.')[0] ?? '0';
  return {
    brands: chromiumBrands(major, extraBrand),
    fullVersionList: chromiumBrands(fullVersion, extraBrand, true),
    fullVersion,
    ...platformOf(userAgent),
    platformVersion: '',
    model: '',
    mobile,
  };
}

/** What CDP's Browser.getVersion answers (the parts used here). */
export interface BrowserVersion {
  userAgent: string;
  /** `Chrome/156.0.8078.108` */
  product: string;
}

/**
 * The Emulation.setUserAgentOverride parameters of a person's browser: the given User-Agent (the request's
 * user_agent) or the browser's own without `Headless`, with the client hints of its version.
 */
export function personIdentity(version: BrowserVersion, given: string | null, extraBrand: string | null, mobile: boolean): { userAgent: string; userAgentMetadata: UserAgentMetadata } {
  const userAgent = given ?? personUserAgent(version.userAgent);
  const fullVersion = version.product.split('/')[1] ?? '0.0.0.0';
  return { userAgent, userAgentMetadata: userAgentMetadata(userAgent, fullVersion, extraBrand, mobile) };
}
