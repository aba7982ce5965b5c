import { ZipArchive } from 'archiver';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { isSafeRelativeName } from '../../core/batch/filename-template.js';
import { ObjectNotFoundError } from '../../core/contracts/object-store.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import { ApiError } from '../../core/errors.js';
import type { FieldErrors } from '../../core/errors.js';
import { BodySizeError, readAtMost } from '../../core/storage/body-size.js';
import { extensionOf } from '../../core/storage/file-extension.js';
import { renderThumbnail } from '../retrieval/thumbnail-render.js';
import type { ThumbnailOptions } from '../retrieval/thumbnail-render.js';

/**
 * The ZIP of a batch (GET /batch/download): every output of every screenshot, one entry after another.
 * Files are streamed from object storage into the archive and the archive into `out`, one entry at a
 * time, so memory stays flat however large the batch is. Only images that get a thumbnail are read whole
 * (sharp needs the encoded image), one at a time.
 */

/** One file of the archive. */
export interface ZipEntryInput {
  /** Base name from the filename template (renderFilename / renderRowFilename): no extension. */
  name: string;
  kind: 'image' | 'html' | 'markdown' | 'metadata' | 'pdf' | 'video';
  /** 1-based shot of an image; null for the other kinds. */
  shot: number | null;
  storageKey: string;
  contentType: string;
  size: number;
  /** An entry made from the record rather than a stored file (the metadata's .json): packed as it is. */
  content?: Buffer;
}

/** Something the archive could not do as asked for one entry; the archive itself still completes. */
export interface ZipProblem {
  name: string;
  storageKey: string;
  message: string;
}

export interface BatchZipDeps {
  objects: ObjectStore;
  /** The batch's thumbnail options (thumbnailOptionsOf), or null to pack the originals. */
  thumbnail: BatchThumbnail | null;
  /** Told about entries skipped (object gone) or packed as the original (thumbnail impossible). */
  onProblem?: (problem: ZipProblem) => void;
}

/** The `thumbnail_*` fields of POST /batch/create, as parsed (unset: undefined or null). */
export interface BatchThumbnailFields {
  thumbnail_width?: number | null;
  thumbnail_height?: number | null;
  thumbnail_format?: 'png' | 'jpeg' | 'webp' | null;
  thumbnail_quality?: number | null;
  thumbnail_ratio?: 'fit' | 'fill' | null;
  thumbnail_scale?: number | null;
  thumbnail_zoom?: number | null;
  thumbnail_left?: number | null;
  thumbnail_top?: number | null;
  thumbnail_right?: number | null;
  thumbnail_bottom?: number | null;
}

/**
 * A batch's thumbnail options. Not ThumbnailOptions itself: there `right`/`bottom` are pixels removed
 * from that edge (GET /screenshot/thumbnail), while the batch's are crop box COORDINATES (exclusive; 0 =
 * the image edge), which become pixels removed only once each image's size is known (cropEdges).
 */
export interface BatchThumbnail {
  /** Applied after the crop. `format` undefined keeps each image's own format (the spec). */
  resize: Omit<ThumbnailOptions, 'left' | 'top' | 'right' | 'bottom'>;
  /** The crop box in image pixels: left/top inclusive, right/bottom exclusive, 0 = the image edge. */
  crop: { left: number; top: number; right: number; bottom: number } | null;
}

/**
 * The zlib level for HTML and PDF: 6 is zlib's own default, nearly the ratio of 9 at a fraction of the
 * CPU time, which matters because the archive is compressed while the client downloads it.
 */
const DEFLATE_LEVEL = 6;

/**
 * Extensions whose content is compressed already: PNG (deflate), JPEG, WEBP, GIF (LZW), MP4 and WEBM
 * (video codecs). Deflating them again saves well under 1% and costs CPU on every download, so they are
 * STORED. HTML is text (deflate makes it several times smaller) and PDFs hold uncompressed text, fonts
 * and cross-reference tables, so those are deflated.
 */
const ALREADY_COMPRESSED = new Set(['png', 'jpg', 'webp', 'gif', 'mp4', 'webm']);

/**
 * The largest image read into memory to make a thumbnail. Full-page PNG captures weigh a few MB to a few
 * tens of MB; 100 MiB bounds what one entry can hold in memory while staying far above any real capture.
 * A larger image is packed as it is.
 */
const MAX_THUMBNAIL_SOURCE_BYTES = 100 * 1024 * 1024;

const THUMBNAIL_EXTENSION = { png: 'png', jpeg: 'jpg', webp: 'webp', avif: 'avif' } as const;

const isSet = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

const THUMBNAIL_FIELDS = [
  'thumbnail_width',
  'thumbnail_height',
  'thumbnail_format',
  'thumbnail_quality',
  'thumbnail_ratio',
  'thumbnail_scale',
  'thumbnail_zoom',
  'thumbnail_left',
  'thumbnail_top',
  'thumbnail_right',
  'thumbnail_bottom',
] as const;

/**
 * Maps the batch's `thumbnail_*` fields to its thumbnail options; null when none is set (the ZIP then
 * holds the originals). Takes the batch's whole options object and reads only those fields. Never throws:
 * it runs when the ZIP is downloaded; an impossible crop box is refused at create time with
 * thumbnailFieldErrors, and at download merely leaves images uncropped (cropEdges).
 */
export function thumbnailOptionsOf(f: BatchThumbnailFields): BatchThumbnail | null {
  if (!THUMBNAIL_FIELDS.some((k) => isSet(f[k]))) return null;
  const resize: BatchThumbnail['resize'] = {};
  if (isSet(f.thumbnail_width)) resize.width = f.thumbnail_width;
  if (isSet(f.thumbnail_height)) resize.height = f.thumbnail_height;
  if (isSet(f.thumbnail_format)) resize.format = f.thumbnail_format;
  if (isSet(f.thumbnail_quality)) resize.quality = f.thumbnail_quality;
  if (isSet(f.thumbnail_ratio)) resize.ratio = f.thumbnail_ratio;
  if (isSet(f.thumbnail_scale)) resize.scale = f.thumbnail_scale;
  if (isSet(f.thumbnail_zoom)) resize.zoom = f.thumbnail_zoom;
  if (![f.thumbnail_left, f.thumbnail_top, f.thumbnail_right, f.thumbnail_bottom].some(isSet)) return { resize, crop: null };
  return { resize, crop: { left: f.thumbnail_left ?? 0, top: f.thumbnail_top ?? 0, right: f.thumbnail_right ?? 0, bottom: f.thumbnail_bottom ?? 0 } };
}

/**
 * The 400 `fields` for a crop box that is empty whatever the image (right ≤ left, or bottom ≤ top, with
 * right/bottom not 0), or null when the box can be used. For POST /batch/create; the ranges of each field
 * are the request schema's job.
 */
export function thumbnailFieldErrors(f: BatchThumbnailFields): FieldErrors | null {
  const errors: FieldErrors = {};
  const left = f.thumbnail_left ?? 0;
  const top = f.thumbnail_top ?? 0;
  if (isSet(f.thumbnail_right) && f.thumbnail_right !== 0 && f.thumbnail_right <= left) errors.thumbnail_right = ['must be greater than thumbnail_left (or 0 for the image edge)'];
  if (isSet(f.thumbnail_bottom) && f.thumbnail_bottom !== 0 && f.thumbnail_bottom <= top) errors.thumbnail_bottom = ['must be greater than thumbnail_top (or 0 for the image edge)'];
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * The crop box as renderThumbnail's pixels removed from each edge, for an image of this size. Edges past
 * the image are clamped to it (as 0 does). Null when the box does not overlap the image at all.
 */
export function cropEdges(crop: NonNullable<BatchThumbnail['crop']>, width: number, height: number): Pick<ThumbnailOptions, 'left' | 'top' | 'right' | 'bottom'> | null {
  const right = crop.right === 0 ? width : Math.min(crop.right, width);
  const bottom = crop.bottom === 0 ? height : Math.min(crop.bottom, height);
  if (crop.left >= right || crop.top >= bottom) return null;
  return { left: crop.left, top: crop.top, right: width - right, bottom: height - bottom };
}

/** The thumbnail format that keeps an image's own format (renderThumbnail writes png, jpeg or webp). */
function ownFormat(contentType: string): 'png' | 'jpeg' | 'webp' {
  if (/^image\/jpeg\b/i.test(contentType)) return 'jpeg';
  if (/^image\/webp\b/i.test(contentType)) return 'webp';
  return 'png';
}

/** Archive names already used, compared the way case-insensitive file systems (Windows, macOS) do. */
class UniqueNames {
  private readonly taken = new Set<string>();

  /** `base.ext`, or `base-2.ext`, `base-3.ext`… when that is taken. */
  claim(base: string, extension: string): string {
    for (let n = 1; ; n += 1) {
      const name = n === 1 ? `${base}.${extension}` : `${base}-${n}.${extension}`;
      const key = name.toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return name;
      }
    }
  }
}

/** An error as one line: an ApiError's field messages say more than its generic "Invalid parameters". */
function reasonOf(error: unknown): string {
  if (error instanceof ApiError && error.extra.fields) return Object.values(error.extra.fields).flat().join('; ');
  return error instanceof Error ? error.message : String(error);
}

type EntrySource = { body: Buffer | Readable; extension: string };

/** The thumbnail of an image, or null when none can be made (reported; the original is packed then). */
async function thumbnailOf(entry: ZipEntryInput, options: BatchThumbnail, deps: BatchZipDeps): Promise<EntrySource | null> {
  const report = (message: string): void => deps.onProblem?.({ name: entry.name, storageKey: entry.storageKey, message });
  if (entry.size > MAX_THUMBNAIL_SOURCE_BYTES) {
    report(`image of ${entry.size} bytes is larger than the ${MAX_THUMBNAIL_SOURCE_BYTES} bytes thumbnails are made from; the original is packed`);
    return null;
  }
  let source: Buffer;
  try {
    source = await readAtMost(await deps.objects.get(entry.storageKey), MAX_THUMBNAIL_SOURCE_BYTES);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) return null; // the streaming path reports and skips it
    if (error instanceof BodySizeError) {
      report(`${error.message}; the original is packed`); // larger than its recorded size said
      return null;
    }
    throw error;
  }
  try {
    const { width = 0, height = 0 } = await sharp(source).metadata();
    const thumbnail: ThumbnailOptions = { ...options.resize, format: options.resize.format ?? ownFormat(entry.contentType) };
    if (options.crop !== null) {
      const edges = cropEdges(options.crop, width, height);
      if (edges === null) report(`the crop box lies outside this ${width}×${height} image; it is not cropped`);
      else Object.assign(thumbnail, edges);
    }
    const { data, format } = await renderThumbnail(source, thumbnail);
    return { body: data, extension: THUMBNAIL_EXTENSION[format] };
  } catch (error) {
    // A corrupt image, or options this image cannot take (scale past MAX_THUMBNAIL_SIDE): one entry must
    // not fail the archive, and the original is the user's real data.
    report(`no thumbnail (${reasonOf(error)}); the original is packed`);
    return null;
  }
}

/** What goes into the archive for one entry; null when its object no longer exists (reported). */
async function sourceOf(entry: ZipEntryInput, deps: BatchZipDeps): Promise<EntrySource | null> {
  if (entry.content !== undefined) return { body: entry.content, extension: extensionOf(entry.contentType, '') };
  if (entry.kind === 'image' && deps.thumbnail !== null) {
    const thumbnail = await thumbnailOf(entry, deps.thumbnail, deps);
    if (thumbnail !== null) return thumbnail;
  }
  try {
    return { body: await deps.objects.get(entry.storageKey), extension: extensionOf(entry.contentType, entry.storageKey) };
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
    // Deleted since it was listed (GET /screenshot/delete?data=image): the rest of the batch is still due.
    deps.onProblem?.({ name: entry.name, storageKey: entry.storageKey, message: 'the stored file no longer exists; it is left out' });
    return null;
  }
}

/**
 * Appends one entry and resolves once the archive has consumed all of it, so at most one source is open
 * and nothing is queued. Rejects with the archive's error, or the output's (`failed`).
 */
async function appendEntry(archive: ZipArchive, body: Buffer | Readable, name: string, store: boolean, failed: Promise<never>): Promise<void> {
  let detach = (): void => undefined;
  const written = new Promise<void>((resolve, reject) => {
    const onEntry = (): void => {
      detach();
      resolve();
    };
    const onError = (error: Error): void => {
      detach();
      reject(error);
    };
    detach = () => {
      archive.off('entry', onEntry);
      archive.off('error', onError);
    };
    archive.on('entry', onEntry);
    archive.on('error', onError);
  });
  archive.append(body, { name, store });
  try {
    await Promise.race([written, failed]);
  } catch (error) {
    detach();
    if (!Buffer.isBuffer(body)) body.destroy(); // the output broke mid-entry: release the object's handle
    throw error;
  }
}

/**
 * Writes the ZIP of `entries` to `out` and ends `out`. Names get their extension here (from the content
 * type, or the thumbnail format) and a `-2`, `-3`… suffix when taken (case-insensitively). Entries whose
 * object is gone are left out and reported through `deps.onProblem`. On any other failure (the output
 * breaks, the store fails, `entries` throws) `out` is destroyed rather than ended, so a client never
 * takes a cut-off archive for a complete one, and the promise rejects.
 */
export async function writeBatchZip(out: NodeJS.WritableStream, entries: AsyncIterable<ZipEntryInput>, deps: BatchZipDeps): Promise<void> {
  const archive = new ZipArchive({ zlib: { level: DEFLATE_LEVEL } });
  const piped = pipeline(archive, out);
  // Settles only on failure; raced against each step so a broken output cannot leave us waiting forever.
  const failed = new Promise<never>((_resolve, reject) => {
    piped.catch(reject);
  });
  failed.catch(() => undefined); // observed through the races; never an unhandled rejection
  const names = new UniqueNames();
  try {
    for await (const entry of entries) {
      if (!isSafeRelativeName(entry.name)) throw new Error(`unsafe name for an archive entry: ${JSON.stringify(entry.name)} (names come from renderFilename)`);
      const source = await sourceOf(entry, deps);
      if (source === null) continue;
      await appendEntry(archive, source.body, names.claim(entry.name, source.extension), ALREADY_COMPRESSED.has(source.extension), failed);
    }
    await Promise.race([archive.finalize(), failed]);
    await piped;
  } catch (error) {
    archive.destroy(error instanceof Error ? error : new Error(String(error)));
    await piped.catch(() => undefined);
    throw error;
  }
}
