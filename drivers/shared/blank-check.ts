import sharp, { type Sharp } from 'sharp';

/**
 * The side of the copy the colour check looks at. Shrinking averages the picture, so a copy of one colour
 * comes from a picture of one colour, and a word of text on a 1280 × 800 page still moves its 20 × 13 px
 * cell by tens of levels; 64 px keeps the statistics to 4,096 pixels whatever the picture's size.
 */
const SAMPLE_PX = 64;
/** Levels a channel may vary in the copy and still be one colour: the rounding of the shrink. */
const SAME_COLOUR_LEVELS = 1;

/**
 * A full page's picture is looked at in its top band first: a band that is not one colour settles it for a
 * fraction of the decode (libvips reads a PNG top down and stops after the band: 9 ms of CPU against 30 ms
 * for the whole of a 1280 × 5,100 page, measured here). Only a picture whose top is one colour is read whole.
 */
const TOP_BAND_ROWS = 1024;

/** Width and height from a PNG's header (IHDR, the first chunk), or null when `image` is no PNG. */
function pngSize(image: Buffer): { width: number; height: number } | null {
  if (image.length < 24 || image.readUInt32BE(0) !== 0x89504e47 || image.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: image.readUInt32BE(16), height: image.readUInt32BE(20) };
}

/** Whether a picture shrunk to the sample's size has every channel within SAME_COLOUR_LEVELS. */
async function copyIsOneColour(picture: Sharp): Promise<boolean> {
  const { data, info } = await picture.resize(SAMPLE_PX, SAMPLE_PX, { fit: 'fill' }).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  for (let channel = 0; channel < info.channels; channel += 1) {
    let min = 255;
    let max = 0;
    for (let at = channel; at < data.length; at += info.channels) {
      const level = data[at]!;
      if (level < min) min = level;
      if (level > max) max = level;
    }
    if (max - min > SAME_COLOUR_LEVELS) return false;
  }
  return true;
}

/**
 * Whether a picture (PNG, JPEG or WebP) shows one colour: the range of each channel over a small copy, made
 * by sharp (the decode and the shrink in libvips). The copy's 4,096 pixels are read here: sharp's stats() on
 * the copy cost ~10 ms of CPU a call for its pipeline (19 ms in all against 8.4 ms for the copy alone,
 * 1280 × 800, measured here), and on the full picture it cost 48 ms (make bench-readiness measures the check
 * per capture). A tall picture's top band is looked at first (TOP_BAND_ROWS).
 */
export async function isOneColour(image: Buffer): Promise<boolean> {
  const size = pngSize(image);
  if (size !== null && size.height > 2 * TOP_BAND_ROWS) {
    const band = sharp(image, { sequentialRead: true }).extract({ left: 0, top: 0, width: size.width, height: TOP_BAND_ROWS });
    if (!(await copyIsOneColour(band))) return false;
  }
  return copyIsOneColour(sharp(image));
}

/**
 * Why a capture is blank, or null when it is not: its last picture is one colour, or nothing is visible on
 * the page (`visible`: hasVisibleContent's answer, read with the links after the shots: after-shots.ts). The
 * last shot is the page as the capture ends; a picture that cannot be read is not called blank. The two looks
 * run side by side (the picture's in this process, the page's in the browser), so the check adds the longer
 * of them to a capture, not their sum. Adds the record's warning when blank.
 */
export async function blankCheck(images: Buffer[], visible: Promise<boolean>, warnings: string[]): Promise<string | null> {
  const last = images[images.length - 1];
  if (last === undefined) return null;
  const [oneColour, shows] = await Promise.all([isOneColour(last).catch(() => false), visible]);
  const reason = oneColour ? 'it shows one colour' : shows ? null : 'nothing is visible on the page';
  if (reason !== null) warnings.push(`The capture looks blank: ${reason}.`);
  return reason;
}
