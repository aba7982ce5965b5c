import sharp from 'sharp';

/**
 * The side of the copy the colour check looks at. Shrinking averages the picture, so a copy of one colour
 * comes from a picture of one colour, and a word of text on a 1280 × 800 page still moves its 20 × 13 px
 * cell by tens of levels; 64 px keeps the statistics to 4,096 pixels whatever the picture's size.
 */
const SAMPLE_PX = 64;
/** Levels a channel may vary in the copy and still be one colour: the rounding of the shrink. */
const SAME_COLOUR_LEVELS = 1;

/**
 * Whether a PNG shows one colour: the range of each channel over a small copy, made by sharp (the decode and
 * the shrink in libvips). The copy's 4,096 pixels are read here: sharp's stats() on the copy cost ~10 ms of
 * CPU a call for its pipeline (19 ms in all against 8.4 ms for the copy alone, 1280 × 800, measured here),
 * and on the full picture it cost 48 ms (make bench-readiness measures the check per capture).
 */
export async function isOneColour(image: Buffer): Promise<boolean> {
  const { data, info } = await sharp(image).resize(SAMPLE_PX, SAMPLE_PX, { fit: 'fill' }).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
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
