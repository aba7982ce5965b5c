// A capture's error as one plain sentence. The agent already words its errors for people ("The page could
// not be reached: …"); what the browser adds (the automation call, its net::ERR_ code, call logs after the
// first line) is said in words here, and the stored text stays one click away on the page.

/** Chromium's network error codes (net_error_list.h) that pages commonly fail with, in words. */
const NET_ERRORS: Record<string, string> = {
  ERR_CONNECTION_REFUSED: 'the server refused the connection',
  ERR_CONNECTION_RESET: 'the connection was reset',
  ERR_CONNECTION_CLOSED: 'the server closed the connection',
  ERR_CONNECTION_TIMED_OUT: 'the connection timed out',
  ERR_TIMED_OUT: 'the connection timed out',
  ERR_NAME_NOT_RESOLVED: 'no such host',
  ERR_ADDRESS_UNREACHABLE: 'the address is unreachable',
  ERR_INTERNET_DISCONNECTED: 'the browser has no network',
  ERR_TOO_MANY_REDIRECTS: 'it redirects too many times',
  ERR_SSL_PROTOCOL_ERROR: 'the TLS handshake failed',
  ERR_CERT_AUTHORITY_INVALID: 'its TLS certificate is not trusted',
  ERR_CERT_COMMON_NAME_INVALID: 'its TLS certificate is for another name',
  ERR_CERT_DATE_INVALID: 'its TLS certificate has expired or is not valid yet',
  ERR_EMPTY_RESPONSE: 'the server sent nothing',
  ERR_BLOCKED_BY_CLIENT: 'the request was blocked',
  ERR_ABORTED: 'the page load was aborted',
};

/** The first line of `error` in words, starting with a capital and ending with a full stop. */
export function plainSentence(error: string): string {
  let text = (error.split('\n')[0] ?? '').trim().replace(/\s+/g, ' ');
  if (!text) return 'The capture failed without saying why.';
  // Playwright names the call that failed ("page.goto: "); a reader needs the cause, not the call.
  text = text.replace(/\b(?:page|frame|locator|browserContext|browser|elementHandle)\.[a-zA-Z]+: /g, '');
  text = text.replace(/net::(ERR_[A-Z_]+)(?: at (\S+))?/g, (whole: string, code: string, url?: string) => {
    const words = NET_ERRORS[code] ?? `the browser's network error ${code}`;
    return url ? `${words} (${url.replace(/[.,;]$/, '')})` : words;
  });
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
