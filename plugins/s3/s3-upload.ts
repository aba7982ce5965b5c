import { Client, S3Error } from 'minio';
import { clientEndpoint } from '../../core/storage/s3-endpoint.js';
import { AppRunError, type AppEgress } from '../contract.js';
import type { S3Settings } from './s3-settings.js';

/** Answers another attempt cannot change: wrong credentials, no such bucket, not allowed. */
const FINAL_CODES = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'NoSuchBucket', 'InvalidBucketName', 'AllAccessDisabled', 'AccountProblem', 'InvalidArgument']);

/** A minio client for the user's S3, connecting through the run's private-address guard. */
export function s3Client(settings: S3Settings, egress: AppEgress): Client {
  const endpoint = clientEndpoint(settings.endpoint);
  return new Client({
    ...endpoint,
    accessKey: settings.access_key,
    secretKey: settings.secret_key,
    region: settings.region,
    pathStyle: settings.path_style,
    transportAgent: egress.agent(new URL(settings.endpoint).protocol),
  });
}

/**
 * The object's URL, readable by anyone with acl=public-read, by the bucket's owner otherwise: at
 * `public_url` when set (a CDN, or the public name of a server the service reaches internally; '' for
 * no link), else at the endpoint.
 */
export function objectUrl(settings: S3Settings, key: string): string {
  if (settings.public_url === '') return '';
  const base = new URL(settings.public_url ?? settings.endpoint);
  const path = key.split('/').map(encodeURIComponent).join('/');
  if (settings.path_style) return `${base.origin}${base.pathname.replace(/\/+$/, '')}/${settings.bucket}/${path}`;
  return `${base.protocol}//${settings.bucket}.${base.host}${base.pathname.replace(/\/+$/, '')}/${path}`;
}

/**
 * The headers an object is stored with. A page's HTML (its scripts included) is stored as a download:
 * served inline from the bucket's origin it would run there. S3 keeps only its own system headers
 * (Content-Type, Content-Disposition, Cache-Control, ...), so `X-Content-Type-Options: nosniff` cannot be
 * stored with the object; the Content-Type is always explicit, and a CDN in front may add nosniff.
 */
export function objectHeaders(settings: S3Settings, contentType: string): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': contentType, 'x-amz-acl': settings.acl };
  if (/^text\/html\b|^application\/xhtml\+xml\b/i.test(contentType)) headers['Content-Disposition'] = 'attachment';
  return headers;
}

/** One PUT of a whole object; abort rejects at once (the client cannot cancel its request, which ends on its own). */
export async function putObject(client: Client, settings: S3Settings, key: string, body: Buffer, contentType: string, signal: AbortSignal): Promise<{ etag: string }> {
  signal.throwIfAborted();
  const put = client.putObject(settings.bucket, key, body, body.length, objectHeaders(settings, contentType));
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const info = await Promise.race([put, aborted]);
    return { etag: info.etag };
  } catch (err) {
    if (signal.aborted) throw err;
    if (err instanceof S3Error && err.code !== undefined && FINAL_CODES.has(err.code)) {
      throw new AppRunError(`S3 refused the upload to ${settings.bucket}/${key}: ${err.code} (${err.message})`, { retryable: false, cause: err });
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPRIVATETARGET') throw new AppRunError((err as Error).message, { retryable: false, cause: err });
    throw new AppRunError(`S3 upload to ${settings.bucket}/${key} failed: ${(err as Error).message}`, { cause: err });
  } finally {
    signal.removeEventListener('abort', onAbort);
    put.catch(() => undefined);
  }
}
