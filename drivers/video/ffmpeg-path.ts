import fs from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The ffmpeg binary for videos: FFMPEG_PATH when set; else the binary of the optional `ffmpeg-static`
 * package when it is installed AND its download succeeded (its install script fetches the binary, which
 * fails offline); else `ffmpeg` on PATH (Debian's, installed by `make run`).
 */
export function resolveFfmpegPath(configured: string | null): string {
  if (configured) return configured;
  try {
    const staticPath = createRequire(import.meta.url)('ffmpeg-static') as unknown;
    if (typeof staticPath === 'string' && fs.existsSync(staticPath)) return staticPath;
  } catch {
    // not installed: fall through to PATH
  }
  return 'ffmpeg';
}
