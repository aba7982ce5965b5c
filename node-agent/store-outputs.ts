import type { CaptureOutput } from '../core/capture-spec.js';
import type { CaptureFile } from '../core/contracts/job-queue.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import { CONTENT_TYPES, IMAGE_TYPES, htmlKey, markdownKey, pdfKey, shotKey, videoKey } from '../core/storage/storage-keys.js';

/** Puts every output of a capture in object storage under screenshots/<id>/ and describes what it stored. */
export async function storeOutputs(store: ObjectStore, id: number, output: CaptureOutput): Promise<CaptureFile[]> {
  const files: CaptureFile[] = [];
  // Every image in the capture's format (drivers/shared/image-format.ts), typed and named after it.
  const format = output.imageFormat ?? 'png';
  for (const [i, image] of output.images.entries()) {
    const stored = await store.put(shotKey(id, i + 1, format), image, { contentType: IMAGE_TYPES[format].contentType, size: image.length });
    files.push({ ...stored, kind: 'image', shot: i + 1 });
  }
  if (output.html !== null) {
    const body = Buffer.from(output.html, 'utf8');
    files.push({ ...(await store.put(htmlKey(id), body, { contentType: CONTENT_TYPES.html, size: body.length })), kind: 'html', shot: null });
  }
  if (output.markdown !== null) {
    const body = Buffer.from(output.markdown, 'utf8');
    files.push({ ...(await store.put(markdownKey(id), body, { contentType: CONTENT_TYPES.markdown, size: body.length })), kind: 'markdown', shot: null });
  }
  if (output.pdf !== null) {
    files.push({ ...(await store.put(pdfKey(id), output.pdf, { contentType: CONTENT_TYPES.pdf, size: output.pdf.length })), kind: 'pdf', shot: null });
  }
  if (output.video !== null) {
    const { data, format } = output.video;
    files.push({ ...(await store.put(videoKey(id, format), data, { contentType: CONTENT_TYPES[format], size: data.length })), kind: 'video', shot: null });
  }
  return files;
}
