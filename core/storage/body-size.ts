import { pipeline, Transform } from 'node:stream';
import type { Readable, TransformCallback } from 'node:stream';

/**
 * The size a caller declares for a body must be the size stored: StoredObject.size is what the API reports,
 * and S3 servers trust Content-Length. These helpers check it while the bytes flow, without holding them.
 */
export class BodySizeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodySizeError';
  }
}

/** A chunk from a Readable as bytes (object-mode or string streams are turned into bytes or refused). */
export function chunkBytes(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  throw new TypeError(`object body chunks must be bytes, got ${typeof chunk}`);
}

/** Passes chunks through, failing as soon as more than `size` bytes arrive, or at the end if fewer did. */
class ExactSize extends Transform {
  private seen = 0;

  constructor(private readonly size: number) {
    super();
  }

  override _transform(chunk: unknown, _encoding: BufferEncoding, done: TransformCallback): void {
    let bytes: Buffer;
    try {
      bytes = chunkBytes(chunk);
    } catch (error) {
      done(error as Error);
      return;
    }
    this.seen += bytes.length;
    if (this.seen > this.size) done(new BodySizeError(`body is longer than its declared size ${this.size}`));
    else done(null, bytes);
  }

  override _flush(done: TransformCallback): void {
    if (this.seen !== this.size) done(new BodySizeError(`body has ${this.seen} bytes, its declared size is ${this.size}`));
    else done();
  }
}

/** `body`, checked to hold exactly `size` bytes; an error of `body` also fails the result. */
export function withExactSize(body: Readable, size: number): Readable {
  // pipeline (not pipe) so an error or early end of `body` destroys the checker too.
  return pipeline(body, new ExactSize(size), () => undefined);
}

/** Reads all of `body` into memory, refusing (and destroying `body`) once it exceeds `limit` bytes. */
export async function readAtMost(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const bytes = chunkBytes(chunk);
    total += bytes.length;
    if (total > limit) {
      body.destroy();
      throw new BodySizeError(`a body without a declared size may hold at most ${limit} bytes; pass meta.size for larger ones`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

/** Rejects a declared size that is not a whole number of bytes, or differs from a Buffer's length. */
export function checkDeclaredSize(body: Buffer | Readable, size: number | undefined): void {
  if (size === undefined) return;
  if (!Number.isSafeInteger(size) || size < 0) throw new BodySizeError(`declared size must be a whole number of bytes, got ${size}`);
  if (Buffer.isBuffer(body) && body.length !== size) {
    throw new BodySizeError(`body has ${body.length} bytes, its declared size is ${size}`);
  }
}
