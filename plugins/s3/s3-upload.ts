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

/** The object's URL: readable by anyone with acl=public-read, by the bucket's owner otherwise. */
export function objectUrl(settings: S3Settings, key: string): string {
  const base = new URL(settings.endpoint);
  const path = key.split('/').map(encodeURIComponent).join('/');
  if (settings.path_style) return `${base.origin}/${settings.bucket}/${path}`;
  return `${base.protocol}//${settings.bucket}.${base.host}/${path}`;
}

/** One PUT of a whole object; abort rejects at once (the client cannot cancel its request, which ends on its own). */
export async function putObject(client: Client, settings: S3Settings, key: string, body: Buffer, contentType: string, signal: AbortSignal): Promise<{ etag: string }> {
  signal.throwIfAborted();
  const put = client.putObject(settings.bucket, key, body, body.length, { 'Content-Type': contentType, 'x-amz-acl': settings.acl });
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
