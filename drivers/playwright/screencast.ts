import type { Page } from 'playwright-core';
import type { VideoSpec } from '../../core/capture-spec.js';
import { waitForMinimumDuration } from '../shared/minimum-duration.js';
import type { VideoEncoder, VideoRecording } from '../video/video-encoder.js';

/**
 * JPEG quality of the screencast frames (0–100). 90 keeps the frames' own artefacts well below what
 * the video encoder removes anyway, at a third of the size of quality 100.
 */
const FRAME_JPEG_QUALITY = 90;

/**
 * Records the page with Playwright's `page.screencast`, which in playwright-core 1.64.1 is CDP
 * Page.startScreencast on Chromium (a frame per repaint) and, on Firefox over BiDi, a loop of
 * browsingContext.captureScreenshot calls (one every 40 ms at most, ~15 fps measured here). Both
 * deliver JPEG frames; the encoder turns them into a constant frame rate.
 */
export class Screencast {
  private constructor(
    private readonly page: Page,
    private readonly video: VideoSpec,
    private readonly recording: VideoRecording,
  ) {}

  static async start(page: Page, video: VideoSpec, encoder: VideoEncoder): Promise<Screencast> {
    const recording = await encoder.start(video);
    const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
    try {
      await page.screencast.start({
        // Full viewport size (even, as the encoders need); video_scale is applied by ffmpeg.
        size: { width: viewport.width & ~1, height: viewport.height & ~1 },
        quality: FRAME_JPEG_QUALITY,
        onFrame: ({ data }) => recording.addFrame(data, performance.now()),
      });
    } catch (error) {
      await recording.abort();
      throw error;
    }
    return new Screencast(page, video, recording);
  }

  /**
   * Keeps recording until the minimum duration is reached (video_duration, counted from the first
   * frame), then returns the encoded video. Only the job's abort signal cuts the minimum short.
   */
  async stop(signal: AbortSignal): Promise<Buffer> {
    await waitForMinimumDuration(this.recording, this.video, signal);
    await this.page.screencast.stop().catch(() => undefined);
    signal.throwIfAborted();
    return this.recording.finish(performance.now());
  }

  async abort(): Promise<void> {
    await this.page.screencast.stop().catch(() => undefined);
    await this.recording.abort();
  }
}
