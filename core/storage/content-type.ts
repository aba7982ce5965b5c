/** The type every store reports for an object stored without a usable one. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/**
 * `type/subtype` with optional parameters, printable ASCII only: the value goes into a Content-Type header
 * when the object is served, so a CR or LF here would let a caller inject headers.
 */
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=("[\x20-\x21\x23-\x7e]*"|[\w.+-]+))*$/;

/** Throws unless `contentType` is a plausible MIME type (e.g. `text/html; charset=utf-8`). */
export function assertValidContentType(contentType: string): void {
  if (!CONTENT_TYPE.test(contentType)) throw new TypeError(`invalid content type ${JSON.stringify(contentType)}`);
}
