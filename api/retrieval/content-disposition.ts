/**
 * `attachment; filename="…"; filename*=UTF-8''…` for a name already validated to hold no control
 * characters, quotes or slashes. The plain form keeps ASCII only; the RFC 5987 form carries the rest.
 */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
