import type { Readable } from 'node:stream';

/** What a stored object is: its key, size and type. */
export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
}

/**
 * Where outputs live: a folder in embedded mode, any S3 (MinIO, AWS…) in distributed mode.
 * Layout: screenshots/<id>/shot-<n>.png, page.html, page.pdf, video.<ext> (see storage-keys.ts).
 */
export interface ObjectStore {
  readonly kind: 'filesystem' | 's3';
  /** Writes an object. `size` is required for streams (S3 servers without multipart need it). */
  put(key: string, body: Buffer | Readable, meta: { contentType: string; size?: number }): Promise<StoredObject>;
  /** Reads an object as a stream; rejects with ObjectNotFoundError when it does not exist. */
  get(key: string): Promise<Readable>;
  /** The object's size and type, or null when it does not exist. */
  stat(key: string): Promise<StoredObject | null>;
  /** Deletes every object whose key starts with the prefix; returns how many. */
  delete(prefix: string): Promise<number>;
  /** A URL that reads the object without credentials until it expires (seconds). */
  signedUrl(key: string, ttlSeconds: number): Promise<string>;
  /** Whether the store answers (for /readyz). */
  reachable(): Promise<boolean>;
}

export class ObjectNotFoundError extends Error {
  constructor(public readonly key: string) {
    super(`object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}
