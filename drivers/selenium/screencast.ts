import type { VideoSpec } from '../../core/capture-spec.js';
import { waitForMinimumDuration } from '../shared/minimum-duration.js';
import type { VideoEncoder, VideoRecording } from '../video/video-encoder.js';
import type { CdpSession } from './cdp-session.js';

/**
 * JPEG quality of the screencast frames (0–100). 90 keeps the frames' own artefacts well below what
 * the video encoder removes anyway (the value the Playwright driver uses).
 */
const FRAME_JPEG_QUALITY = 90;

interface ScreencastFrame {
  data: string;
  sessionId: number;
}

/**
 * Records the page with CDP Page.startScreencast (a JPEG frame per repaint), which is also what
 * Playwright's page.screencast does on Chromium. Each frame is acknowledged, or Chromium stops
 * sending; the encoder in drivers/video turns the frames into a constant frame rate.
 */
export class Screencast {
  private constructor(
    private readonly cdp: CdpSession,
    private readonly video: VideoSpec,
    private readonly recording: VideoRecording,
    private readonly unsubscribe: () => void,
  ) {}

  static async start(cdp: CdpSession, video: VideoSpec, viewport: { width: number; height: number }, encoder: VideoEncoder): Promise<Screencast> {
    const recording = await encoder.start(video);
    const unsubscribe = cdp.on('Page.screencastFrame', (params) => {
      const frame = params as unknown as ScreencastFrame;
      recording.addFrame(Buffer.from(frame.data, 'base64'), performance.now());
      cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    });
    try {
      await cdp.send('Page.startScreencast', {
        format: 'jpeg',
        quality: FRAME_JPEG_QUALITY,
        // The viewport's size, even (the encoders need even sizes); video_scale is applied by ffmpeg.
        maxWidth: viewport.width & ~1,
        maxHeight: viewport.height & ~1,
        everyNthFrame: 1,
      });
    } catch (error) {
      unsubscribe();
      await recording.abort();
      throw error;
    }
    return new Screencast(cdp, video, recording, unsubscribe);
  }

  /** Keeps recording up to the minimum duration, then returns the encoded video. */
  async stop(signal: AbortSignal): Promise<Buffer> {
    await waitForMinimumDuration(this.recording, this.video, signal);
    await this.cdp.send('Page.stopScreencast').catch(() => undefined);
    this.unsubscribe();
    signal.throwIfAborted();
    return this.recording.finish(performance.now());
  }

  async abort(): Promise<void> {
    this.unsubscribe();
    await this.cdp.send('Page.stopScreencast').catch(() => undefined);
    await this.recording.abort();
  }
}
