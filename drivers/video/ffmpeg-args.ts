import type { VideoSpec } from '../../core/capture-spec.js';

/** H.264's CRF scale runs 0–51 (0 lossless, 51 worst); the API's quality runs 0–63. */
const X264_CRF_MAX = 51;
const QUALITY_MAX = 63;

/** GIF has no CRF: quality picks the palette dithering, from finest (slow, big) to none (small, banded). */
function gifDither(quality: number): string {
  if (quality <= 21) return 'sierra2_4a'; // error diffusion: smooth gradients, largest files
  if (quality <= 42) return 'bayer:bayer_scale=3'; // ordered dither: mild pattern, compresses well
  return 'none'; // no dithering: visible bands, smallest files
}

/**
 * The video filter shared by every format.
 * - setpts=PTS/speed: plays `speed` times faster (or slower below 1) by rescaling timestamps.
 * - scale=trunc(iw*s/2)*2:trunc(ih*s/2)*2: applies video_scale and rounds to even sizes, because
 *   yuv420p stores colour per 2×2 block and the encoders reject odd widths or heights.
 */
function baseFilter(video: VideoSpec): string {
  return `setpts=PTS/${video.speed},scale=trunc(iw*${video.scale}/2)*2:trunc(ih*${video.scale}/2)*2`;
}

/**
 * ffmpeg's command line for one recording: JPEG frames on stdin at a constant `fps`, one file out.
 * Every flag is explained where it is added.
 */
export function ffmpegArgs(video: VideoSpec, outputPath: string): string[] {
  const input = [
    '-hide_banner', // no build banner on stderr: stderr is kept only for error messages
    '-loglevel',
    'error', // and only errors go there
    '-f',
    'image2pipe', // the input is a stream of concatenated images, not a file with a container
    '-c:v',
    'mjpeg', // those images are JPEG (the screencast's frame format)
    '-framerate',
    String(video.fps), // one image per 1/fps s: the frames arrive already at a constant rate
    '-i',
    'pipe:0', // read them from stdin
  ];
  const common = [
    '-an', // no audio stream: a screencast has none
    '-r',
    String(video.fps), // output frame rate: setpts changes timestamps, this keeps the rate at fps by dropping/duplicating
  ];
  switch (video.format) {
    case 'mp4':
      return [
        ...input,
        ...common,
        '-vf',
        baseFilter(video),
        '-c:v',
        'libx264', // H.264: plays everywhere
        '-preset',
        'veryfast', // encoding speed over size: two cores also run the browser
        '-crf',
        String(Math.round((video.quality * X264_CRF_MAX) / QUALITY_MAX)), // constant quality, mapped from 0–63
        '-pix_fmt',
        'yuv420p', // 4:2:0 chroma: the only layout browsers and phones decode
        '-movflags',
        '+faststart', // index at the front, so playback starts before the download ends
        '-f',
        'mp4',
        '-y',
        outputPath, // container; overwrite the temp file
      ];
    case 'webm':
      return [
        ...input,
        ...common,
        '-vf',
        baseFilter(video),
        '-c:v',
        'libvpx-vp9', // VP9: WebM's modern codec
        '-crf',
        String(video.quality), // VP9's CRF scale is 0–63, the API's scale as it is
        '-b:v',
        '0', // no bitrate target: with -crf this is VP9's constant-quality mode
        '-deadline',
        'realtime', // fastest encoder mode: two cores also run the browser
        '-cpu-used',
        '8', // realtime mode's fastest speed setting (0–8)
        '-row-mt',
        '1', // encode rows in parallel threads
        '-pix_fmt',
        'yuv420p', // 4:2:0 chroma, as browsers expect
        '-f',
        'webm',
        '-y',
        outputPath,
      ];
    case 'gif':
      return [
        ...input,
        ...common,
        // split the stream: one copy computes an optimal palette of `colors`, the other is mapped onto it.
        // stats_mode=diff builds the palette from what changes between frames, which is what animates.
        '-filter_complex',
        `[0:v]${baseFilter(video)}:flags=lanczos,split[a][b];[a]palettegen=max_colors=${video.colors}:stats_mode=diff[p];[b][p]paletteuse=dither=${gifDither(video.quality)}`,
        '-loop',
        '0', // loop forever, as a screencast GIF is expected to
        '-f',
        'gif',
        '-y',
        outputPath,
      ];
  }
}
