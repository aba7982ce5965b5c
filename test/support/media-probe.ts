import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

const run = promisify(execFile);

/** Pixel size of a PNG, from its header (no pixel limit: only the header is read). */
export async function imageSize(png: Buffer): Promise<{ width: number; height: number }> {
  const { width, height } = await sharp(png, { limitInputPixels: false }).metadata();
  return { width: width ?? 0, height: height ?? 0 };
}

/** RGB of one pixel. */
export async function pixel(png: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

/** True when every channel is within `tolerance` of the expected colour (PNG is lossless, but AA exists). */
export function near(actual: [number, number, number], expected: [number, number, number], tolerance = 8): boolean {
  return actual.every((value, index) => Math.abs(value - expected[index]!) <= tolerance);
}

/** Raw RGBA pixels, to compare two captures exactly. */
export async function rawPixels(png: Buffer): Promise<Buffer> {
  return sharp(png).ensureAlpha().raw().toBuffer();
}

/** Page count and the size of each page, in PDF points. */
export async function pdfPages(pdf: Buffer): Promise<{ width: number; height: number }[]> {
  const document = await PDFDocument.load(pdf);
  return document.getPages().map((page) => page.getSize());
}

/** ffprobe's view of a video: codec, duration in seconds, frame size. */
export async function probeVideo(video: Buffer, extension: string): Promise<{ codec: string; duration: number; width: number; height: number; pixFmt: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'shotfarm-probe-'));
  try {
    const file = join(folder, `video.${extension}`);
    await writeFile(file, video);
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,width,height,pix_fmt,nb_read_frames,r_frame_rate:format=duration',
      '-of',
      'json',
      file,
    ]);
    const parsed = JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number; pix_fmt: string }[]; format: { duration: string } };
    const stream = parsed.streams[0]!;
    return { codec: stream.codec_name, duration: Number(parsed.format.duration), width: stream.width, height: stream.height, pixFmt: stream.pix_fmt };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
