/** File extensions of the content types outputs are stored with. */
const EXTENSION_OF_TYPE: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'text/html': 'html',
  'text/markdown': 'md',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
};

/** The file extension of a stored object: from its content type, else from its key, else `bin`. */
export function extensionOf(contentType: string, storageKey: string): string {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const fromType = EXTENSION_OF_TYPE[type];
  if (fromType !== undefined) return fromType;
  return /\.([a-z0-9]{1,5})$/i.exec(storageKey)?.[1]?.toLowerCase() ?? 'bin';
}
