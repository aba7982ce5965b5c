import { Client, S3Error } from 'minio';
import type { BucketItem } from 'minio';
import type { Readable } from 'node:stream';
import { ObjectNotFoundError } from '../contracts/object-store.js';
import type { ObjectStore, StoredObject } from '../contracts/object-store.js';
import { checkDeclaredSize, readAtMost, withExactSize } from './body-size.js';
import { assertValidContentType, DEFAULT_CONTENT_TYPE } from './content-type.js';
import { assertValidKey, assertValidPrefix } from './object-key.js';
import { clientEndpoint } from './s3-endpoint.js';

export interface S3ObjectStoreOptions {
  /** `http(s)://host[:port]` of MinIO or any S3 (no path: buckets are addressed path-style below it). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  /** Longest a reachable() probe may take before the store counts as down. */
  reachableTimeoutMs?: number;
  /** Largest stream put without a declared size (it is held in memory to learn its size). */
  maxUnsizedBytes?: number;
}

/** /readyz must answer quickly even when the S3 host swallows packets; a healthy S3 answers HEAD in ms. */
const DEFAULT_REACHABLE_TIMEOUT_MS = 2_000;
/**
 * 64 MiB: minio's part size, the size up to which the client holds a body in memory anyway to send it in
 * one PUT. Screenshots, HTML and PDFs stay far below it; the video encoder declares its sizes.
 */
const DEFAULT_MAX_UNSIZED_BYTES = 64 * 1024 * 1024;
/** S3 refuses presigned URLs valid for longer than 7 days (in seconds). */
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

/** Error codes S3 servers use for a missing object: GET answers NoSuchKey, HEAD (no body) NotFound. */
const MISSING_OBJECT_CODES = new Set(['NoSuchKey', 'NotFound']);
/** Creating a bucket another process has just created is not a failure. */
const BUCKET_EXISTS_CODES = new Set(['BucketAlreadyOwnedByYou', 'BucketAlreadyExists']);

const isS3Code = (error: unknown, codes: Set<string>): boolean => error instanceof S3Error && error.code !== undefined && codes.has(error.code);

/** Objects in one bucket of MinIO or any S3-compatible server, through the `minio` client. */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  private readonly client: Client;
  private readonly bucket: string;
  private readonly region: string;
  private readonly reachableTimeoutMs: number;
  private readonly maxUnsizedBytes: number;

  constructor(options: S3ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.region = options.region;
    this.reachableTimeoutMs = options.reachableTimeoutMs ?? DEFAULT_REACHABLE_TIMEOUT_MS;
    this.maxUnsizedBytes = options.maxUnsizedBytes ?? DEFAULT_MAX_UNSIZED_BYTES;
    this.client = new Client({
      ...clientEndpoint(options.endpoint),
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      // Known up front, so the client never asks the server for the bucket's region first.
      region: options.region,
      // Path-style (`host/bucket/key`) works with MinIO and S3 alike, without DNS for each bucket.
      pathStyle: true,
    });
  }

  /** Creates the bucket if it does not exist yet. */
  async init(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (error) {
      if (!isS3Code(error, BUCKET_EXISTS_CODES)) throw error;
    }
  }

  async put(key: string, body: Buffer | Readable, meta: { contentType: string; size?: number }): Promise<StoredObject> {
    try {
      assertValidKey(key);
      assertValidContentType(meta.contentType);
      checkDeclaredSize(body, meta.size);
      const headers = { 'Content-Type': meta.contentType };
      if (!Buffer.isBuffer(body) && meta.size !== undefined) {
        // Streamed with its size: minio sends one PUT with that Content-Length (multipart above its part
        // size); the checker fails the upload if the stream does not match the size it was announced with.
        await this.client.putObject(this.bucket, key, withExactSize(body, meta.size), meta.size, headers);
        return { key, size: meta.size, contentType: meta.contentType };
      }
      // Without a size, minio would fall back to a multipart upload, which not every S3 server offers:
      // learn the size by reading the (bounded) stream first.
      const bytes = Buffer.isBuffer(body) ? body : await readAtMost(body, this.maxUnsizedBytes);
      await this.client.putObject(this.bucket, key, bytes, bytes.length, headers);
      return { key, size: bytes.length, contentType: meta.contentType };
    } catch (error) {
      // put owns the body: a stream it did not (fully) read must not keep its source open.
      if (!Buffer.isBuffer(body)) body.destroy();
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      return await this.client.getObject(this.bucket, key);
    } catch (error) {
      if (isS3Code(error, MISSING_OBJECT_CODES)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    try {
      const info = await this.client.statObject(this.bucket, key);
      const contentType: unknown = info.metaData['content-type'];
      return { key, size: info.size, contentType: typeof contentType === 'string' ? contentType : DEFAULT_CONTENT_TYPE };
    } catch (error) {
      if (isS3Code(error, MISSING_OBJECT_CODES)) return null;
      throw error;
    }
  }

  async delete(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    const keys: string[] = [];
    // recursive: list every key under the prefix, not just one level of `folders`.
    const listing = this.client.listObjectsV2(this.bucket, prefix, true) as AsyncIterable<BucketItem>;
    for await (const item of listing) {
      if (item.name !== undefined) keys.push(item.name);
    }
    // One DELETE per key, in order: every S3 server has it (DeleteObjects is missing or racy on some
    // S3-compatible servers, s3rver included), and a screenshot holds a handful of objects. S3 answers a
    // DELETE of a key that is already gone with success, so a concurrent delete does not fail this one.
    for (const key of keys) await this.client.removeObject(this.bucket, key);
    return keys.length;
  }

  async signedUrl(key: string, ttlSeconds: number): Promise<string> {
    assertValidKey(key);
    if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0 || ttlSeconds > MAX_PRESIGN_SECONDS) {
      throw new RangeError(`ttlSeconds must be in (0, ${MAX_PRESIGN_SECONDS}], got ${ttlSeconds}`);
    }
    // Signed locally, no request. The signing time is truncated to the second, so one second more keeps
    // the promise of at least ttlSeconds (within S3's cap).
    return this.client.presignedGetObject(this.bucket, key, Math.min(Math.ceil(ttlSeconds) + 1, MAX_PRESIGN_SECONDS));
  }

  /** One HEAD on the bucket, given at most reachableTimeoutMs. */
  async reachable(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.reachableTimeoutMs);
    });
    const probe = this.client.bucketExists(this.bucket).then(
      (exists) => exists,
      () => false,
    );
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
