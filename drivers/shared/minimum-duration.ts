import type { VideoSpec } from '../../core/capture-spec.js';
import type { VideoRecording } from '../video/video-encoder.js';

/**
 * Waits until a recording is as long as video_duration asks (counted from its first frame). Only the
 * job's abort signal cuts it short.
 */
export async function waitForMinimumDuration(recording: VideoRecording, video: VideoSpec, signal: AbortSignal): Promise<void> {
  const missing = video.duration * 1000 - recording.elapsed(performance.now());
  if (missing <= 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, missing);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
