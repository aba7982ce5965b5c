import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { cropEdges, thumbnailFieldErrors, thumbnailOptionsOf, writeBatchZip } from '../../api/batches/batch-zip.js';
import type { BatchThumbnailFields, ZipEntryInput, ZipProblem } from '../../api/batches/batch-zip.js';
import { FilesystemObjectStore } from '../../core/storage/filesystem-store.js';

/** ZIP compression methods (APPNOTE 4.4.5). */
const STORED = 0;
const DEFLATED = 8;
const MB = 1024 * 1024;

interface ZipFileEntry {
  method: number;
  size: number;
  compressed: number;
  data: Buffer | null;
}

/** Every entry of a ZIP file, read with yauzl; the data too (CRC-checked) unless `withData` is false. */
async function readZip(path: string, withData = true): Promise<Map<string, ZipFileEntry>> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  const out = new Map<string, ZipFileEntry>();
  try {
    for await (const entry of zip.eachEntry()) {
      let data: Buffer | null = null;
      if (withData) {
        const chunks: Buffer[] = [];
        for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
        data = Buffer.concat(chunks);
        expect(crc32(data) >>> 0, `CRC of ${entry.fileName}`).to.equal(entry.crc32 >>> 0);
      }
      expect(out.has(entry.fileName), `duplicate entry ${entry.fileName}`).to.equal(false);
      out.set(entry.fileName, { method: entry.compressionMethod, size: entry.uncompressedSize, compressed: entry.compressedSize, data });
    }
  } finally {
    zip.close();
  }
  return out;
}

/** A 200×100 PNG: left half red, right half blue, so crops can be told apart by colour. */
async function halvesPng(): Promise<Buffer> {
  const width = 200;
  const height = 100;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) raw.set(x < width / 2 ? [255, 0, 0] : [0, 0, 255], (y * width + x) * 3);
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function pdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 200]);
  page.drawText('batch zip test', { x: 20, y: 100, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
}

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];

describe('batch ZIP (integration: filesystem store, sharp, yauzl)', function () {
  this.timeout(60_000);
  let dir: string;
  let store: FilesystemObjectStore;
  const files: Record<string, { key: string; bytes: Buffer; contentType: string }> = {};

  const entry = (name: string, file: string, kind: ZipEntryInput['kind'], shot: number | null = null): ZipEntryInput => {
    const f = files[file];
    if (f === undefined) throw new Error(`no fixture ${file}`);
    return { name, kind, shot, storageKey: f.key, contentType: f.contentType, size: f.bytes.length };
  };

  /** Writes the ZIP of `entries` to a file and reads it back; also returns the problems reported. */
  async function zipOf(entries: ZipEntryInput[], thumbnail: BatchThumbnailFields = {}): Promise<{ zip: Map<string, ZipFileEntry>; problems: ZipProblem[] }> {
    const path = join(dir, `${randomBytes(6).toString('hex')}.zip`);
    const problems: ZipProblem[] = [];
    await writeBatchZip(createWriteStream(path), each(entries), { objects: store, thumbnail: thumbnailOptionsOf(thumbnail), onProblem: (p) => problems.push(p) });
    return { zip: await readZip(path), problems };
  }

  const dataOf = (zip: Map<string, ZipFileEntry>, name: string): Buffer => {
    const found = zip.get(name);
    if (found?.data == null) throw new Error(`no entry ${name} in ${[...zip.keys()].join(', ')}`);
    return found.data;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shotfarm-batch-zip-'));
    store = new FilesystemObjectStore({ root: join(dir, 'objects'), signingSecret: 'batch-zip-test', baseUrl: 'http://127.0.0.1' });
    await store.init();
    const fixtures: Record<string, { key: string; bytes: Buffer; contentType: string }> = {
      halves: { key: 'screenshots/1/shot-1.png', bytes: await halvesPng(), contentType: 'image/png' },
      green: {
        key: 'screenshots/1/shot-2.png',
        bytes: await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 0, g: 160, b: 0 } } })
          .png()
          .toBuffer(),
        contentType: 'image/png',
      },
      photo: {
        key: 'screenshots/2/shot-1.png',
        bytes: await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 200, g: 200, b: 0 } } })
          .jpeg()
          .toBuffer(),
        contentType: 'image/jpeg',
      },
      strip: {
        key: 'screenshots/3/shot-1.png',
        bytes: await sharp({ create: { width: 1200, height: 10, channels: 3, background: { r: 9, g: 9, b: 9 } } })
          .png()
          .toBuffer(),
        contentType: 'image/png',
      },
      html: { key: 'screenshots/1/page.html', bytes: Buffer.from(`<!doctype html><title>t</title>${'<p>batch zip test paragraph</p>\n'.repeat(500)}`), contentType: 'text/html; charset=utf-8' },
      pdf: { key: 'screenshots/1/page.pdf', bytes: await pdf(), contentType: 'application/pdf' },
    };
    for (const [name, f] of Object.entries(fixtures)) {
      await store.put(f.key, f.bytes, { contentType: f.contentType });
      files[name] = f;
    }
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('packs the originals, byte for byte, when no thumbnail option is set', async () => {
    const { zip, problems } = await zipOf([
      entry('1-example.com', 'halves', 'image', 1),
      entry('1-example.com', 'green', 'image', 2),
      entry('1-example.com', 'html', 'html'),
      entry('1-example.com', 'pdf', 'pdf'),
      entry('2-example.com', 'photo', 'image', 1),
    ]);
    expect([...zip.keys()]).to.deep.equal(['1-example.com.png', '1-example.com-2.png', '1-example.com.html', '1-example.com.pdf', '2-example.com.jpg']);
    expect(dataOf(zip, '1-example.com.png').equals(files.halves!.bytes)).to.equal(true);
    expect(dataOf(zip, '1-example.com-2.png').equals(files.green!.bytes)).to.equal(true);
    expect(dataOf(zip, '1-example.com.html').equals(files.html!.bytes)).to.equal(true);
    expect(dataOf(zip, '1-example.com.pdf').equals(files.pdf!.bytes)).to.equal(true);
    expect(dataOf(zip, '2-example.com.jpg').equals(files.photo!.bytes)).to.equal(true);
    expect(problems).to.deep.equal([]);
  });

  it('stores images and deflates HTML and PDF', async () => {
    const { zip } = await zipOf([entry('a', 'halves', 'image', 1), entry('a', 'photo', 'image', 1), entry('a', 'html', 'html'), entry('a', 'pdf', 'pdf')]);
    expect(zip.get('a.png')?.method).to.equal(STORED);
    expect(zip.get('a.jpg')?.method).to.equal(STORED);
    expect(zip.get('a.html')?.method).to.equal(DEFLATED);
    expect(zip.get('a.pdf')?.method).to.equal(DEFLATED);
    const html = zip.get('a.html') as ZipFileEntry;
    expect(html.compressed).to.be.below(html.size / 10, 'a repetitive page shrinks a lot');
  });

  it('keeps colliding names apart case-insensitively, folders included', async () => {
    const { zip } = await zipOf([
      entry('site', 'halves', 'image', 1),
      entry('SITE', 'halves', 'image', 2),
      entry('Site', 'halves', 'image', 3),
      entry('site-2', 'halves', 'image', 1),
      entry('example.com/site', 'halves', 'image', 1),
      entry('EXAMPLE.COM/site', 'halves', 'image', 1),
    ]);
    expect([...zip.keys()]).to.deep.equal(['site.png', 'SITE-2.png', 'Site-3.png', 'site-2-2.png', 'example.com/site.png', 'EXAMPLE.COM/site-2.png']);
  });

  it('makes thumbnails of images only: HTML and PDF are never thumbnailed', async () => {
    const { zip, problems } = await zipOf([entry('1', 'halves', 'image', 1), entry('1', 'green', 'image', 2), entry('1', 'html', 'html'), entry('1', 'pdf', 'pdf')], {
      thumbnail_width: 50,
      thumbnail_format: 'webp',
      thumbnail_quality: 80,
    });
    expect([...zip.keys()]).to.deep.equal(['1.webp', '1-2.webp', '1.html', '1.pdf']);
    const first = await sharp(dataOf(zip, '1.webp')).metadata();
    expect([first.format, first.width, first.height]).to.deep.equal(['webp', 50, 25]);
    const second = await sharp(dataOf(zip, '1-2.webp')).metadata();
    expect([second.format, second.width, second.height]).to.deep.equal(['webp', 50, 38]); // 400×300 fit into width 50
    expect(zip.get('1.webp')?.method).to.equal(STORED);
    expect(dataOf(zip, '1.html').equals(files.html!.bytes)).to.equal(true);
    expect(dataOf(zip, '1.pdf').equals(files.pdf!.bytes)).to.equal(true);
    expect(problems).to.deep.equal([]);
  });

  it("keeps each image's own format when thumbnail_format is omitted", async () => {
    const { zip } = await zipOf([entry('p', 'halves', 'image', 1), entry('j', 'photo', 'image', 1)], { thumbnail_height: 40 });
    const png = await sharp(dataOf(zip, 'p.png')).metadata();
    expect([png.format, png.width, png.height]).to.deep.equal(['png', 80, 40]);
    expect(dataOf(zip, 'p.png').equals(files.halves!.bytes)).to.equal(false, 'a thumbnail, not the original');
    const jpeg = await sharp(dataOf(zip, 'j.jpg')).metadata();
    expect([jpeg.format, jpeg.width, jpeg.height]).to.deep.equal(['jpeg', 60, 40]);
  });

  it("crops with the batch's box coordinates (right/bottom exclusive), before resizing", async () => {
    // Coordinates: x 50..150 × y 10..60 → 100×50, red on its left half and blue on its right.
    // (As pixels removed from each edge, right=150 would leave nothing of a 200-pixel-wide image.)
    const box = { thumbnail_left: 50, thumbnail_right: 150, thumbnail_top: 10, thumbnail_bottom: 60 };
    const cropped = dataOf((await zipOf([entry('c', 'halves', 'image', 1)], box)).zip, 'c.png');
    expect(await sharp(cropped).metadata()).to.include({ width: 100, height: 50 });
    expect(await pixel(cropped, 10, 25)).to.deep.equal(RED);
    expect(await pixel(cropped, 90, 25)).to.deep.equal(BLUE);

    // right 0 extends to the image edge: x 100..200 is all blue.
    const rightHalf = dataOf((await zipOf([entry('r', 'halves', 'image', 1)], { thumbnail_left: 100, thumbnail_right: 0 })).zip, 'r.png');
    expect(await sharp(rightHalf).metadata()).to.include({ width: 100, height: 100 });
    expect(await pixel(rightHalf, 0, 0)).to.deep.equal(BLUE);

    // The crop comes first, then zoom × scale, then the box: 100×50 → ×0.5 → 50×25 → fill 20×20.
    const resized = dataOf((await zipOf([entry('z', 'halves', 'image', 1)], { ...box, thumbnail_zoom: 50 })).zip, 'z.png');
    expect(await sharp(resized).metadata()).to.include({ width: 50, height: 25 });
    const filled = dataOf((await zipOf([entry('f', 'halves', 'image', 1)], { ...box, thumbnail_scale: 0.5, thumbnail_width: 20, thumbnail_height: 20, thumbnail_ratio: 'fill' })).zip, 'f.png');
    expect(await sharp(filled).metadata()).to.include({ width: 20, height: 20 });
  });

  it('clamps a box past the image, and leaves an image the box misses uncropped (reported)', async () => {
    const { zip, problems } = await zipOf([entry('wide', 'halves', 'image', 1), entry('big', 'green', 'image', 1)], { thumbnail_left: 150, thumbnail_right: 1000, thumbnail_top: 250 });
    // halves is 200×100: x 150..200 but y from 250 misses it → uncropped; green is 400×300: 250×50.
    expect(await sharp(dataOf(zip, 'wide.png')).metadata()).to.include({ width: 200, height: 100 });
    expect(await sharp(dataOf(zip, 'big.png')).metadata()).to.include({ width: 250, height: 50 });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.include({ name: 'wide', storageKey: files.halves!.key });
    expect(problems[0]?.message).to.match(/crop box lies outside this 200×100 image/);
  });

  it('packs the original when an image cannot take the options (reported)', async () => {
    // 1200 × 10 would become 12000 pixels wide, past MAX_THUMBNAIL_SIDE.
    const { zip, problems } = await zipOf([entry('strip', 'strip', 'image', 1), entry('ok', 'halves', 'image', 1)], { thumbnail_scale: 10 });
    expect(dataOf(zip, 'strip.png').equals(files.strip!.bytes)).to.equal(true);
    expect(await sharp(dataOf(zip, 'ok.png')).metadata()).to.include({ width: 2000, height: 1000 });
    expect(problems.map((p) => p.name)).to.deep.equal(['strip']);
    expect(problems[0]?.message).to.match(/no thumbnail .*12000.*the original is packed/);
  });

  it('leaves out an object that no longer exists, reporting it, and packs the rest', async () => {
    const gone = { name: 'gone', kind: 'image', shot: 1, storageKey: 'screenshots/999/shot-1.png', contentType: 'image/png', size: 10 } as const;
    for (const thumbnail of [{}, { thumbnail_width: 10 }]) {
      const { zip, problems } = await zipOf([gone, entry('kept', 'html', 'html')], thumbnail);
      expect([...zip.keys()]).to.deep.equal(['kept.html']);
      expect(problems).to.deep.equal([{ name: 'gone', storageKey: gone.storageKey, message: 'the stored file no longer exists; it is left out' }]);
    }
  });

  it('refuses a name that could leave the archive, and breaks the output instead of ending it', async () => {
    for (const name of ['../evil', '/etc/passwd', 'a\\b', '.hidden', '']) {
      const out = createWriteStream(join(dir, 'refused.zip'));
      let error: unknown = null;
      await writeBatchZip(out, each([entry('fine', 'html', 'html'), { ...entry('x', 'html', 'html'), name }]), { objects: store, thumbnail: null }).catch((e: unknown) => {
        error = e;
      });
      expect(String(error), name).to.match(/unsafe name for an archive entry/);
      expect(out.destroyed, name).to.equal(true);
    }
  });

  it('destroys the output, so no cut-off archive looks complete, when the entries fail midway', async () => {
    const path = join(dir, 'cut.zip');
    const out = createWriteStream(path);
    async function* failing(): AsyncGenerator<ZipEntryInput> {
      yield entry('one', 'halves', 'image', 1);
      throw new Error('database went away');
    }
    let error: unknown = null;
    await writeBatchZip(out, failing(), { objects: store, thumbnail: null }).catch((e: unknown) => {
      error = e;
    });
    expect(String(error)).to.equal('Error: database went away');
    expect(out.destroyed).to.equal(true);
    let unreadable: unknown = null;
    await readZip(path).catch((e: unknown) => {
      unreadable = e;
    });
    expect(String(unreadable)).to.match(/end of central directory record signature not found/i);
  });

  it('rejects, and stops reading the store, when the output breaks mid-entry', async () => {
    const key = 'screenshots/4/video.mp4';
    const bytes = randomBytes(4 * MB);
    await store.put(key, bytes, { contentType: 'video/mp4' });
    let accepted = 0;
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        accepted += chunk.length;
        done(accepted > MB ? new Error('client went away') : null);
      },
    });
    let error: unknown = null;
    await writeBatchZip(out, each([{ name: 'v', kind: 'video', shot: null, storageKey: key, contentType: 'video/mp4', size: bytes.length }]), { objects: store, thumbnail: null }).catch(
      (e: unknown) => {
        error = e;
      },
    );
    expect(String(error)).to.equal('Error: client went away');
    expect(accepted).to.be.below(bytes.length, 'it stopped before the whole object went out');
  });

  it('streams 300 entries of a 1 MB object with flat memory', async () => {
    const key = 'screenshots/5/video.mp4';
    const bytes = randomBytes(MB); // random: incompressible, like a real video
    await store.put(key, bytes, { contentType: 'video/mp4' });
    const count = 300;
    const total = count * MB;
    async function* many(): AsyncGenerator<ZipEntryInput> {
      for (let i = 0; i < count; i += 1) yield { name: 'clip', kind: 'video', shot: null, storageKey: key, contentType: 'video/mp4', size: MB };
    }
    const path = join(dir, 'many.zip');
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    try {
      await writeBatchZip(createWriteStream(path), many(), { objects: store, thumbnail: null });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage.rss());
    // Buffering the archive or its entries would grow RSS by about `total` (300 MB); streaming holds a few
    // chunks (64 KiB reads, archiver's 1 MiB buffer) plus garbage not yet collected. A quarter of the
    // total leaves room for the collector's slack and still fails loudly on any buffering.
    expect(peak - before, `RSS grew by ${((peak - before) / MB).toFixed(1)} MB`).to.be.below(total / 4);

    expect((await stat(path)).size).to.be.above(total);
    const zip = await readZip(path, false);
    expect(zip.size).to.equal(count);
    expect(zip.has('clip.mp4') && zip.has('clip-2.mp4') && zip.has(`clip-${count}.mp4`)).to.equal(true);
    for (const [name, e] of zip) expect([e.method, e.size, e.compressed], name).to.deep.equal([STORED, MB, MB]);
  });
});

describe('batch thumbnail options (unit)', () => {
  it('is null when no thumbnail_* field is set, whatever else the batch holds', () => {
    expect(thumbnailOptionsOf({})).to.equal(null);
    expect(thumbnailOptionsOf({ thumbnail_width: null, thumbnail_format: undefined })).to.equal(null);
    const batchOptions = { name: 'b', filename_template: '{id}', filenames: { 1: 'x' }, thumbnail_width: undefined };
    expect(thumbnailOptionsOf(batchOptions)).to.equal(null);
  });

  it('maps each thumbnail_* field, keeping the crop box apart', () => {
    expect(
      thumbnailOptionsOf({
        thumbnail_width: 1,
        thumbnail_height: 2,
        thumbnail_format: 'jpeg',
        thumbnail_quality: 3,
        thumbnail_ratio: 'fill',
        thumbnail_scale: 0.5,
        thumbnail_zoom: 4,
        thumbnail_left: 5,
        thumbnail_top: 6,
        thumbnail_right: 70,
        thumbnail_bottom: 0,
      }),
    ).to.deep.equal({
      resize: { width: 1, height: 2, format: 'jpeg', quality: 3, ratio: 'fill', scale: 0.5, zoom: 4 },
      crop: { left: 5, top: 6, right: 70, bottom: 0 },
    });
    expect(thumbnailOptionsOf({ thumbnail_format: 'png' })).to.deep.equal({ resize: { format: 'png' }, crop: null });
    expect(thumbnailOptionsOf({ thumbnail_top: 3 })).to.deep.equal({ resize: {}, crop: { left: 0, top: 3, right: 0, bottom: 0 } });
  });

  it('turns box coordinates into pixels removed from each edge, per image size', () => {
    expect(cropEdges({ left: 10, top: 20, right: 110, bottom: 70 }, 200, 100)).to.deep.equal({ left: 10, top: 20, right: 90, bottom: 30 });
    expect(cropEdges({ left: 10, top: 0, right: 0, bottom: 0 }, 200, 100)).to.deep.equal({ left: 10, top: 0, right: 0, bottom: 0 });
    expect(cropEdges({ left: 0, top: 0, right: 500, bottom: 500 }, 200, 100)).to.deep.equal({ left: 0, top: 0, right: 0, bottom: 0 });
    expect(cropEdges({ left: 200, top: 0, right: 0, bottom: 0 }, 200, 100)).to.equal(null);
    expect(cropEdges({ left: 0, top: 100, right: 0, bottom: 0 }, 200, 100)).to.equal(null);
  });

  it('names the crop fields that make an empty box whatever the image', () => {
    expect(thumbnailFieldErrors({ thumbnail_left: 10, thumbnail_right: 10, thumbnail_top: 5, thumbnail_bottom: 4 })).to.have.keys(['thumbnail_right', 'thumbnail_bottom']);
    expect(thumbnailFieldErrors({ thumbnail_right: 0, thumbnail_bottom: 0, thumbnail_left: 50 })).to.equal(null);
    expect(thumbnailFieldErrors({ thumbnail_left: 10, thumbnail_right: 11 })).to.equal(null);
    expect(thumbnailFieldErrors({})).to.equal(null);
  });
});
