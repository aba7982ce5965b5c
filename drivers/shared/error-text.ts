/**
 * What went wrong, as a plain clause a user understands, from an error a driver threw: Playwright's
 * (`locator.click: Timeout 1000ms exceeded.` with call logs after it), WebDriver BiDi's (`Protocol error
 * (browsingContext.navigate): unknown error`), Chromium's network codes (`net::ERR_CONNECTION_REFUSED at
 * URL`), Selenium's (`invalid selector: An invalid or illegal selector was specified`) and our own. It is
 * the one place driver errors become text: every warning a capture records goes through it, so a record
 * never shows a protocol message. A browser's network code stays at the end in parentheses, as browsers'
 * own error pages show it: it is what a user searches for, and node-agent/browser-failure.ts reads it.
 */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = (message.split('\n')[0] ?? message).trim();
  // Playwright names its call first (`locator.click: `, `page.goto: `); the call decides how a timeout reads.
  const call = /^([a-z][A-Za-z]*\.[a-z][A-Za-z]*): /.exec(line)?.[1] ?? '';
  const detail = line.slice(call ? call.length + 2 : 0).replace(/^Error: /, '');
  for (const [pattern, say] of PLAIN) {
    const match = pattern.exec(detail);
    if (match) return say(match, call);
  }
  return detail.replace(/\.$/, '');
}

/** The wording of a navigation that got no answer in time (node-agent/browser-failure.ts reads it as a timeout). */
export const NO_LOAD_WITHIN = 'it did not load within';

/** Milliseconds as a person reads them: 1000 → "1 s", 2407 → "2.4 s". */
const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;

/** What a timeout means, by the call that timed out. */
function timedOut(call: string, ms: number): string {
  if (call.startsWith('locator.') || call === 'page.waitForSelector') return `no visible element matched within ${seconds(ms)}`;
  if (/^(page|frame)\.(goto|reload|goBack|goForward|waitForLoadState|waitForNavigation|waitForURL)$/.test(call)) return `${NO_LOAD_WITHIN} ${seconds(ms)}`;
  return `it did not finish within ${seconds(ms)}`;
}

/** Browsers' network error codes (Chromium's ERR_*, Firefox's NS_ERROR_* and certificate codes) in words. */
const NETWORK: [RegExp, string][] = [
  [/^ERR_NAME_NOT_RESOLVED$|^ERR_NAME_RESOLUTION_FAILED$|^NS_ERROR_UNKNOWN_HOST$/, 'its host name does not exist'],
  [/^ERR_CONNECTION_REFUSED$|^NS_ERROR_CONNECTION_REFUSED$/, 'the server refused the connection'],
  [
    /^ERR_(CONNECTION_RESET|CONNECTION_CLOSED|CONNECTION_ABORTED|EMPTY_RESPONSE|SOCKET_NOT_CONNECTED)$|^NS_ERROR_NET_(RESET|INTERRUPT|EMPTY_RESPONSE)$/,
    'the server closed the connection without an answer',
  ],
  [/^ERR_(TIMED_OUT|CONNECTION_TIMED_OUT)$|^NS_ERROR_NET_TIMEOUT$/, 'the server did not answer in time'],
  [/^ERR_(ADDRESS_UNREACHABLE|NETWORK_UNREACHABLE|INTERNET_DISCONNECTED)$|^NS_ERROR_OFFLINE$/, 'its address cannot be reached from this network'],
  [/^ERR_(CERT_|SSL_|BAD_SSL_)|^(SEC_ERROR_|SSL_ERROR_|MOZILLA_PKIX_ERROR_)/, 'its HTTPS certificate was not accepted'],
  [/^ERR_UNSAFE_PORT$|^NS_ERROR_PORT_ACCESS_NOT_ALLOWED$/, 'browsers refuse to connect to that port'],
  [/^ERR_TOO_MANY_REDIRECTS$|^NS_ERROR_REDIRECT_LOOP$/, 'it redirects in a loop'],
  [/^ERR_(PROXY_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED)$|^NS_ERROR_PROXY_/, 'the proxy could not connect to it'],
  [/^ERR_(BLOCKED_BY_CLIENT|BLOCKED_BY_RESPONSE|BLOCKED_BY_ADMINISTRATOR)$/, 'the browser blocked it'],
  [/^ERR_ABORTED$|^NS_BINDING_ABORTED$/, 'the browser cancelled the load (a download, or another navigation)'],
  [/^ERR_INVALID_URL$|^NS_ERROR_MALFORMED_URI$/, 'its address is not a valid URL'],
];

/** `its host name does not exist (ERR_NAME_NOT_RESOLVED at http://a.test/)`: the URL when the browser named one (a redirect's). */
const networkError = (code: string, url: string | undefined): string =>
  `${NETWORK.find(([pattern]) => pattern.test(code))?.[1] ?? 'the browser could not load it'} (${code}${url ? ` at ${url}` : ''})`;

type Say = (match: RegExpExecArray, call: string) => string;

/** Each known message, first match wins; `detail` has the call and a leading `Error: ` taken off. */
const PLAIN: [RegExp, Say][] = [
  // Playwright's own timeouts, and the Selenium driver's wait for an element (drivers/selenium/find-element.ts).
  [/^Timeout (\d+)ms exceeded/, (m, call) => timedOut(call, Number(m[1]))],
  [/^\S.* was not (found|visible) within (\d+) ms$/, (m) => `no visible element matched within ${seconds(Number(m[2]))}`],
  // Selectors: Playwright's parser, the DOM's querySelector, WebDriver's "invalid selector".
  [/while parsing css selector "(.*)"/, (m) => `"${m[1]}" is not a valid CSS selector`],
  [/'(.*)' is not a valid selector/, (m) => `"${m[1]}" is not a valid CSS selector`],
  [/^invalid selector\b/, () => 'the selector is not valid CSS'],
  [/Element is not a <select> element|Select only works on <select> elements/, () => 'the element is not a drop-down list (<select>)'],
  [/^Cannot locate option with value: (.*)$|^Did not find some options/, () => 'the drop-down list has no option with that value'],
  [/^Unknown key: "(.*)"$|^unknown key (.*)$/, (m) => `"${m[1] ?? m[2]}" is not a key name (Enter, Tab, ArrowDown, Control+A…)`],
  [/^element not interactable\b|^Element is not (visible|enabled|editable)/, () => 'the element cannot be used (hidden or disabled)'],
  [/^element click intercepted\b/, () => 'another element covers it'],
  [/^no such element\b/, () => 'no element matched'],
  // The page went away under the call: closed or crashed, or replaced by a navigation.
  [
    /Target page, context or browser has been closed|Target closed|Page closed|Browser has been closed|Session closed|no such window|invalid session id|Browsing context .*(discarded|closed)|NoSuchWindowError|Page crashed|Target crashed/i,
    () => 'the page was closed (it crashed or closed itself)',
  ],
  [
    /Execution context was destroyed|Cannot find context with specified id|[Ff]rame (was|has been) detached|stale element reference|Navigation interrupted/,
    () => 'the page moved to another document meanwhile',
  ],
  // Network codes, with or without Chromium's `net::` and Playwright's ` at URL`.
  [/\b(?:net::)?((?:ERR|NS_ERROR|NS_BINDING|SEC_ERROR|SSL_ERROR|MOZILLA_PKIX_ERROR)_[A-Z0-9_]+)(?: at (https?:\/\/\S+))?/, (m) => networkError(m[1] as string, m[2])],
  [/^Failed to load script\b|^javascript error: Failed to load script\b/, () => 'the script could not be loaded'],
  // Firefox over WebDriver BiDi often names no cause at all; otherwise the cause is read as any other.
  [
    /^Protocol error \([\w.]+\): (?:unknown error|An unknown error occurred)\.?$/,
    (_m, call) => (call === 'page.goto' ? 'the browser could not load it and gave no reason' : 'the browser failed and gave no reason'),
  ],
  [/^Protocol error \([\w.]+\): (.+)$/, (m, call) => errorText(new Error(call ? `${call}: ${m[1]}` : m[1]))],
  [/^timeout: Timed out receiving message from renderer/, () => 'the page did not answer in time'],
  [/^javascript error: (.*)$/, (m) => `a script failed in the page (${m[1]})`],
  [/^(ReferenceError|TypeError|SyntaxError|RangeError|EvalError|URIError|DOMException): (.*)$/, (m) => `a script failed in the page (${m[1]}: ${m[2]})`],
];
