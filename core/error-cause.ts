/**
 * Why a screenshot ended as `error`, as a stable code a client can branch on (the record's `error_cause`,
 * beside the human sentence in `error`). Codes are never renamed; new ones may be added. The meaning is
 * what docs/api-clients.md lists, with the sentence each comes with and the test that produces it.
 */
export const ERROR_CAUSES = {
  dns: 'the host name does not resolve',
  refused: 'the host refused the connection',
  reset: 'the host closed or reset the connection before it answered',
  timeout: 'the host did not answer in time',
  no_route: 'there is no network route to the host',
  unreachable: 'the page got no answer, for a reason the browser did not name more precisely',
  tls_expired: 'the TLS certificate has expired (strict_ssl)',
  tls_not_yet_valid: 'the TLS certificate is not valid yet (strict_ssl)',
  tls_wrong_host: 'the TLS certificate is for other host names (strict_ssl)',
  tls_self_signed: 'the TLS certificate is self-signed (strict_ssl)',
  tls_untrusted: 'the TLS certificate is not signed by a trusted authority (strict_ssl)',
  tls: 'the TLS handshake failed for another reason',
  blocked: 'the page resolves to a private network address, which the egress guard refuses',
  no_image: 'the page answered but no image could be taken',
  unresponsive: 'the page stopped responding (its scripts never yield); not retried',
  too_much_memory: "the page used more memory than the farm's ceiling and was stopped; not retried",
  condition_failed: 'a condition of the request was not met (fail_on_status, fail_if_selector, fail_unless_selector, fail_on_blank, or a wait with wait_strict)',
  capture_failed: "the capture failed on the farm's side (a browser crash or hang) on every attempt",
  cancelled: 'the screenshot was cancelled with its batch or crawl',
  not_queued: 'the screenshot could not be queued',
} as const;

export type ErrorCause = keyof typeof ERROR_CAUSES;

export function isErrorCause(value: unknown): value is ErrorCause {
  return typeof value === 'string' && Object.hasOwn(ERROR_CAUSES, value);
}
