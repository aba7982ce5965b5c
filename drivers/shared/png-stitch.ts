import { crc32, createDeflate } from 'node:zlib';
import sharp from 'sharp';
import type { PngEncoding } from '../../core/contracts/browser-driver.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const RGBA = 4;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, tail]);
}

/**
 * Stacks PNG tiles of equal width, top to bottom, into one RGBA PNG without ever holding the whole
 * picture's pixels: each tile is decoded (sharp) and its rows go straight into one deflate stream,
 * so memory is one decoded tile, one buffer of filtered rows (reused: each write is awaited until zlib
 * has consumed it) and the compressed output. sharp's own composite or raw-input PNG
 * would hold all rows at once (1280×100,000 RGBA is 512 MB). Rows use PNG filter 0 (none): the
 * adaptive filters would cost a pass over every byte in JS; zlib level follows the operator's
 * encoding choice (fast: level 1, small: level 6).
 */
export async function stitchPngTiles(tiles: AsyncIterable<Buffer>, encoding: PngEncoding): Promise<Buffer> {
  const deflate = createDeflate({ level: encoding === 'fast' ? 1 : 6, chunkSize: 1 << 20 });
  const idat: Buffer[] = [];
  deflate.on('data', (data: Buffer) => idat.push(chunk('IDAT', data)));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let width = 0;
  let height = 0;
  let rows = Buffer.alloc(0);
  try {
    for await (const tile of tiles) {
      const { data, info } = await sharp(tile, { limitInputPixels: false }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      if (width === 0) width = info.width;
      if (info.width !== width) throw new Error(`a screenshot tile is ${info.width} px wide, the first one ${width} px`);
      const stride = width * RGBA;
      const length = info.height * (stride + 1);
      if (rows.length < length) rows = Buffer.alloc(length); // filter bytes stay 0: only row bytes are copied in
      for (let y = 0; y < info.height; y += 1) data.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
      height += info.height;
      await new Promise<void>((resolve, reject) => deflate.write(rows.subarray(0, length), (error) => (error ? reject(error) : resolve())));
    }
  } catch (error) {
    deflate.destroy();
    throw error;
  }
  deflate.end();
  await ended;
  if (height === 0) throw new Error('no screenshot tiles to stitch');
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(6, 9); // colour type RGBA
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), ...idat, chunk('IEND', Buffer.alloc(0))]);
}
