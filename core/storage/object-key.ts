/**
 * What an object key may look like, the same rules for every store, so a key that works in embedded mode
 * also works on S3 and the reverse. The filesystem store maps keys to paths, so the rules are mostly about
 * never letting a key leave the store's root folder.
 */

/** S3's own limit on a key, in UTF-8 bytes. */
const MAX_KEY_BYTES = 1024;
/**
 * Longest `/`-separated segment, in UTF-8 bytes. Linux filesystems cap a file name at 255 bytes, and the
 * filesystem store names a sidecar `.<segment>.meta.json` (11 bytes more): 200 leaves room to spare.
 */
const MAX_SEGMENT_BYTES = 200;
/** C0 controls (NUL included) and DEL: invisible, and NUL ends a path in the kernel. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export class InvalidObjectKeyError extends Error {
  constructor(
    public readonly key: string,
    reason: string,
  ) {
    super(`invalid object key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidObjectKeyError';
  }
}

/** Why `key` is not a valid key, or null when it is. */
function keyProblem(key: string): string | null {
  if (key.length === 0) return 'empty';
  // A lone UTF-16 surrogate would be written as U+FFFD, so two different keys would name one file.
  if (Buffer.from(key, 'utf8').toString('utf8') !== key) return 'not valid Unicode';
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) return `longer than ${MAX_KEY_BYTES} bytes`;
  if (CONTROL_CHARS.test(key)) return 'contains a control character';
  // A backslash separates folders on Windows: refusing it keeps one key one path everywhere.
  if (key.includes('\\')) return 'contains a backslash';
  for (const segment of key.split('/')) {
    // An empty segment means a leading slash (an absolute path), a trailing slash or `//`.
    if (segment.length === 0) return 'has an empty segment (leading, trailing or double slash)';
    // Covers `.` and `..`, and keeps dot-names free for the filesystem store's temp files and sidecars.
    if (segment.startsWith('.')) return 'has a segment starting with a dot';
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) return `has a segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/** Throws InvalidObjectKeyError unless `key` names an object. */
export function assertValidKey(key: string): void {
  const problem = keyProblem(key);
  if (problem !== null) throw new InvalidObjectKeyError(key, problem);
}

/** Whether `key` names an object (for input that must not throw, such as a signed link's path). */
export function isValidKey(key: string): boolean {
  return keyProblem(key) === null;
}

/**
 * Throws unless `prefix` is usable for delete(prefix): a key, or a key followed by `/`. The empty prefix
 * is refused on purpose: it would delete everything the store holds.
 */
export function assertValidPrefix(prefix: string): void {
  const body = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  const problem = keyProblem(body);
  if (problem !== null) throw new InvalidObjectKeyError(prefix, `as a prefix: ${problem}`);
}
