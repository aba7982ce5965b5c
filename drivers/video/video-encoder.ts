import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VideoSpec } from '../../core/capture-spec.js';
import { ConstantFrameRate } from './constant-frame-rate.js';
import { ffmpegArgs } from './ffmpeg-args.js';

export interface VideoEncoderSettings {
  /** the ffmpeg binary: FFMPEG_PATH from config, or `ffmpeg` found on PATH */
  ffmpegPath: string;
}

/** Keep the last 4 KiB of ffmpeg's stderr: enough for its error message, bounded for a chatty run. */
const STDERR_TAIL_BYTES = 4096;

/**
 * One recording: JPEG frames in (with their arrival time), an encoded file out. Frames pass through a
 * constant-frame-rate resampler into ffmpeg's stdin. mp4 needs a seekable output (the index is
 * written at the end and moved to the front), so ffmpeg writes a temporary file that is read back.
 */
export class VideoRecording {
  private readonly rate: ConstantFrameRate<Buffer>;
  private readonly exited: Promise<void>;
  private stderr = '';

  private constructor(
    private readonly ffmpeg: ChildProcessWithoutNullStreams,
    private readonly folder: string,
    private readonly outputPath: string,
    fps: number,
  ) {
    this.rate = new ConstantFrameRate<Buffer>(fps, (frame) => {
      // Write errors (ffmpeg died) surface through `exited`; the stdin 'error' handler keeps them quiet here.
      ffmpeg.stdin.write(frame);
    });
    ffmpeg.stdin.on('error', () => undefined);
    ffmpeg.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    this.exited = new Promise((resolve, reject) => {
      ffmpeg.on('error', reject);
      ffmpeg.on('close', (code, signal) => {
        if (code === 0) resolve();
        else reject(new Error(`ffmpeg exited with ${signal ?? code}: ${this.stderr.trim()}`));
      });
    });
    this.exited.catch(() => undefined);
  }

  static async start(video: VideoSpec, settings: VideoEncoderSettings): Promise<VideoRecording> {
    const folder = await mkdtemp(join(tmpdir(), 'shotfarm-video-'));
    const outputPath = join(folder, `video.${video.format}`);
    const ffmpeg = spawn(settings.ffmpegPath, ffmpegArgs(video, outputPath), { stdio: ['pipe', 'pipe', 'pipe'] });
    return new VideoRecording(ffmpeg, folder, outputPath, video.fps);
  }

  /** Milliseconds of video recorded so far (since the first frame). */
  elapsed(now: number): number {
    return this.rate.elapsed(now);
  }

  addFrame(jpeg: Buffer, now: number): void {
    this.rate.push(jpeg, now);
  }

  /** Ends the recording at `now` and returns the encoded file. */
  async finish(now: number): Promise<Buffer> {
    try {
      const frames = this.rate.finish(now);
      this.ffmpeg.stdin.end();
      if (frames === 0) {
        this.ffmpeg.kill('SIGKILL');
        throw new Error('the screencast delivered no frame');
      }
      await this.exited;
      return await readFile(this.outputPath);
    } finally {
      await rm(this.folder, { recursive: true, force: true });
    }
  }

  /** Stops without a result (the capture failed). */
  async abort(): Promise<void> {
    this.ffmpeg.kill('SIGKILL');
    await this.exited.catch(() => undefined);
    await rm(this.folder, { recursive: true, force: true });
  }
}

/** Starts recordings with the configured ffmpeg. */
export class VideoEncoder {
  constructor(private readonly settings: VideoEncoderSettings) {}

  start(video: VideoSpec): Promise<VideoRecording> {
    return VideoRecording.start(video, this.settings);
  }
}
