import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { ObjectNotFoundError } from '../contracts/object-store.js';
import type { ObjectStore, StoredObject } from '../contracts/object-store.js';
import { checkDeclaredSize, chunkBytes, withExactSize } from './body-size.js';
import { assertValidContentType, DEFAULT_CONTENT_TYPE } from './content-type.js';
import { assertValidKey, assertValidPrefix } from './object-key.js';
import { signObjectUrl } from './object-url-signature.js';

export { verifyObjectSignature } from './object-url-signature.js';

export interface FilesystemObjectStoreOptions {
  /** The folder holding the objects (embedded mode: `<data dir>/objects`). */
  root: string;
  /** Key of the HMAC that signs links (see object-url-signature.ts). */
  signingSecret: string;
  /** Public URL of the API that serves `/objects/<key>` links. */
  baseUrl: string;
}

/**
 * Names the store gives its own files. Keys cannot contain a segment starting with a dot (object-key.ts),
 * so these never collide with an object.
 *  - the content type of `a/b.png` lives in the sidecar `a/.b.png.meta.json` (`{"contentType": "…"}`);
 *  - bytes being written live in `a/.<uuid>.tmp` until renamed into place.
 */
const SIDECAR_SUFFIX = '.meta.json';
const TEMP_SUFFIX = '.tmp';
/**
 * How often put re-creates its folder: delete(prefix) removes folders it emptied, and may do so between
 * put's mkdir and its open. Losing that race three times in a row needs three deletes in as many
 * microseconds; more attempts would only hide a real problem.
 */
const FOLDER_ATTEMPTS = 3;

const sidecarName = (name: string): string => `.${name}${SIDECAR_SUFFIX}`;

/** The object name a sidecar belongs to, or null for any other name. */
function sidecarOwner(name: string): string | null {
  return name.startsWith('.') && name.endsWith(SIDECAR_SUFFIX) ? name.slice(1, -SIDECAR_SUFFIX.length) : null;
}

/** A missing file, or a path through a file as if it were a folder. */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Removes a folder if it is empty; a folder still in use (or already gone) is left alone. */
async function removeIfEmpty(folder: string): Promise<boolean> {
  try {
    await rmdir(folder);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Objects as files under a root folder: `<root>/<key>`, so the data dir can be read with ordinary tools.
 * Writes are atomic (temp file in the same folder, fsync, rename): a reader sees the old object or the new
 * one, never a part. The content type is kept in a sidecar written before the object, so an object that can
 * be seen always has its type; an object without a sidecar (placed by hand) reads as octet-stream.
 */
export class FilesystemObjectStore implements ObjectStore {
  readonly kind = 'filesystem' as const;
  private readonly root: string;

  constructor(private readonly options: FilesystemObjectStoreOptions) {
    if (options.signingSecret.length === 0) throw new Error('FilesystemObjectStore needs a signing secret');
    this.root = resolve(options.root);
  }

  /** Creates the root folder. */
  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  async put(key: string, body: Buffer | Readable, meta: { contentType: string; size?: number }): Promise<StoredObject> {
    try {
      const path = this.pathOf(key);
      assertValidContentType(meta.contentType);
      checkDeclaredSize(body, meta.size);
      const folder = dirname(path);
      // The object and its sidecar are written and synced at the same time (their two fsyncs overlap; the
      // capture's result waits for them); the renames below keep the order that matters.
      const [data, sidecar] = await Promise.allSettled([this.writeTemp(folder, body, meta.size), this.writeTemp(folder, Buffer.from(JSON.stringify({ contentType: meta.contentType })), undefined)]);
      const temps = [data, sidecar].flatMap((written) => (written.status === 'fulfilled' ? [written.value.path] : []));
      try {
        if (data.status === 'rejected') throw data.reason;
        if (sidecar.status === 'rejected') throw sidecar.reason;
        await rename(sidecar.value.path, join(folder, sidecarName(basename(path))));
        await rename(data.value.path, path);
        return { key, size: data.value.size, contentType: meta.contentType };
      } catch (error) {
        await Promise.all(temps.map((temp) => rm(temp, { force: true })));
        throw error;
      }
    } catch (error) {
      // put owns the body: a stream it did not (fully) read must not keep its source open.
      if (!Buffer.isBuffer(body)) body.destroy();
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
    try {
      // A folder opens fine on Linux: `screenshots/<id>` is a prefix, not an object.
      if (!(await handle.stat()).isFile()) throw new ObjectNotFoundError(key);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle.createReadStream(); // closes the handle when the stream ends or is destroyed
  }

  async stat(key: string): Promise<StoredObject | null> {
    const path = this.pathOf(key);
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      size = info.size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    return { key, size, contentType: await this.contentTypeOf(path) };
  }

  async delete(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    // `screenshots/ab` → every name starting with `ab` in the folder `screenshots`; `screenshots/ab/` →
    // everything in the folder `screenshots/ab`.
    const slash = prefix.lastIndexOf('/');
    const folder = slash < 0 ? this.root : join(this.root, ...prefix.slice(0, slash).split('/'));
    const namePrefix = prefix.slice(slash + 1);
    const count = await this.deleteIn(folder, (name) => name.startsWith(namePrefix));
    await this.pruneEmptyFolders(folder);
    return count;
  }

  async signedUrl(key: string, ttlSeconds: number): Promise<string> {
    assertValidKey(key);
    return signObjectUrl(this.options.signingSecret, this.options.baseUrl, key, ttlSeconds, new Date());
  }

  /** The root is a folder this process can read and write (false when the volume is gone). */
  async reachable(): Promise<boolean> {
    try {
      if (!(await stat(this.root)).isDirectory()) return false;
      await access(this.root, constants.R_OK | constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  private pathOf(key: string): string {
    assertValidKey(key); // after this, no segment is empty, `.` or `..`: the path stays under the root
    return join(this.root, ...key.split('/'));
  }

  private async contentTypeOf(path: string): Promise<string> {
    let text: string;
    try {
      text = await readFile(join(dirname(path), sidecarName(basename(path))), 'utf8');
    } catch (error) {
      if (isMissing(error)) return DEFAULT_CONTENT_TYPE;
      throw error;
    }
    const parsed = JSON.parse(text) as { contentType?: unknown };
    if (typeof parsed.contentType !== 'string') throw new Error(`sidecar of ${path} has no contentType`);
    return parsed.contentType;
  }

  /** Writes `body` to a new temp file in `folder` and flushes it to disk; returns its path and size. */
  private async writeTemp(folder: string, body: Buffer | Readable, size: number | undefined): Promise<{ path: string; size: number }> {
    const path = join(folder, `.${randomUUID()}${TEMP_SUFFIX}`);
    const handle = await this.createInFolder(folder, path);
    let written = 0;
    try {
      if (Buffer.isBuffer(body)) {
        await handle.writeFile(body);
        written = body.length;
      } else {
        for await (const chunk of size === undefined ? body : withExactSize(body, size)) {
          const bytes = chunkBytes(chunk);
          await handle.writeFile(bytes); // appends at the current position, looping over short writes
          written += bytes.length;
        }
      }
      // Without fsync, a crash soon after the rename can leave an empty file under the final name.
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(path, { force: true });
      throw error;
    }
    await handle.close();
    return { path, size: written };
  }

  /** Creates (exclusively) the file `path` in `folder`, creating the folder as needed. */
  private async createInFolder(folder: string, path: string): Promise<FileHandle> {
    for (let attempt = 1; ; attempt += 1) {
      await mkdir(folder, { recursive: true });
      try {
        return await open(path, 'wx');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= FOLDER_ATTEMPTS) throw error;
      }
    }
  }

  /** Deletes the objects named `matches` in `folder` and everything below matching folders; returns how many. */
  private async deleteIn(folder: string, matches: (name: string) => boolean): Promise<number> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    let count = 0;
    for (const entry of entries) {
      if (entry.name.startsWith('.') || !matches(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        count += await this.deleteIn(path, () => true);
        // A folder holding another writer's temp file stays; that writer's object lands in it.
        await removeIfEmpty(path);
      } else if (entry.isFile()) {
        try {
          await rm(path);
          count += 1;
        } catch (error) {
          if (!isMissing(error)) throw error; // gone already: another delete counted it
        }
      }
    }
    // Sidecars after their objects (put writes them the other way round), orphans from a crash included.
    for (const entry of entries) {
      const owner = sidecarOwner(entry.name);
      if (owner !== null && matches(owner)) await rm(join(folder, entry.name), { force: true });
    }
    return count;
  }

  /** Removes `folder` and its ancestors below the root while they are empty. */
  private async pruneEmptyFolders(folder: string): Promise<void> {
    for (let current = folder; current !== this.root && current.startsWith(this.root); current = dirname(current)) {
      if (!(await removeIfEmpty(current))) return;
    }
  }
}
