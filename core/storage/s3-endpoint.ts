/** minio's options for an endpoint URL. */
export function clientEndpoint(endpoint: string): { endPoint: string; port: number; useSSL: boolean } {
  const url = new URL(endpoint);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`S3 endpoint must be http(s): ${endpoint}`);
  if (url.pathname !== '/' || url.search !== '') throw new Error(`S3 endpoint must not have a path or query: ${endpoint}`);
  const useSSL = url.protocol === 'https:';
  // The default ports of http and https, which URL leaves out of `port`.
  const port = url.port === '' ? (useSSL ? 443 : 80) : Number(url.port);
  // IPv6 hosts come bracketed from URL; minio adds its own brackets.
  return { endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, useSSL };
}
