import type { Db } from '../db/connect.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import { extensionOf } from '../../core/storage/file-extension.js';
import type { AppFile, AppFiles } from '../../plugins/contract.js';
import { readAtMost } from '../../core/storage/body-size.js';

/** The order apps see outputs in: the shots, then the page's HTML, Markdown, PDF and video. */
const KIND_ORDER: Record<AppFile['kind'], number> = { image: 0, html: 1, markdown: 2, pdf: 3, video: 4 };

/** screenshot_files kinds are output kinds (image, html, markdown, pdf, mp4, webm, gif): every video format is a video. */
const appKind = (kind: string): AppFile['kind'] => (kind === 'image' || kind === 'html' || kind === 'markdown' || kind === 'pdf' ? kind : 'video');

/** Read access to one screenshot's stored outputs, and nothing else of the store. */
export async function screenshotAppFiles(db: Db, objects: ObjectStore, screenshotId: number): Promise<AppFiles> {
  const rows = await db('screenshot_files').where({ screenshot_id: screenshotId }).select('kind', 'shot', 'storage_key', 'content_type', 'size_bytes');
  const entries = rows
    .map((r) => ({
      key: r.storage_key as string,
      file: {
        kind: appKind(r.kind),
        shot: appKind(r.kind) === 'image' ? Number(r.shot) : null,
        contentType: r.content_type,
        size: Number(r.size_bytes),
        extension: extensionOf(r.content_type, r.storage_key),
      } as AppFile,
    }))
    .sort((a, b) => KIND_ORDER[a.file.kind] - KIND_ORDER[b.file.kind] || (a.file.shot ?? 0) - (b.file.shot ?? 0));
  const keyOf = (file: AppFile): string => {
    const entry = entries.find((e) => e.file === file || (e.file.kind === file.kind && e.file.shot === file.shot));
    if (!entry) throw new Error(`the screenshot has no ${file.kind} output`);
    return entry.key;
  };
  return {
    list: () => entries.map((e) => e.file),
    stream: (file) => objects.get(keyOf(file)),
    // The recorded size bounds the read: a stored object can never make an app hold more than it declared.
    read: async (file) => readAtMost(await objects.get(keyOf(file)), file.size),
  };
}
