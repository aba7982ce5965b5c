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
 * Whether a PNG shows one colour: sharp's statistics of a small copy, no pixel walk in JavaScript. The copy
 * is made first: stats() describes a pipeline's input, not its output, and on the full picture it cost
 * 48 ms of CPU for 1280 × 800 against 15 ms for both steps here (make bench-readiness measures it per capture).
 */
export async function isOneColour(image: Buffer): Promise<boolean> {
  const small = await sharp(image).resize(SAMPLE_PX, SAMPLE_PX, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  const { channels } = await sharp(small.data, { raw: small.info }).stats();
  return channels.every((channel) => channel.max - channel.min <= SAME_COLOUR_LEVELS);
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
