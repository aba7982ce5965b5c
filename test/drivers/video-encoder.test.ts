import { expect } from 'chai';
import sharp from 'sharp';
import { ConstantFrameRate } from '../../drivers/video/constant-frame-rate.js';
import { VideoEncoder } from '../../drivers/video/video-encoder.js';
import type { VideoSpec } from '../../core/capture-spec.js';
import { probeVideo } from '../support/media-probe.js';

describe('constant frame rate', function () {
  it('duplicates frames over gaps and drops frames within one slot', function () {
    const out: string[] = [];
    const rate = new ConstantFrameRate<string>(10, (frame) => out.push(frame)); // slots of 100 ms
    rate.push('a', 1000); // t=0: slot 0
    rate.push('b', 1050); // slot 0 again: replaces a (dropped)
    rate.push('c', 1320); // slot 3: slots 0,1,2 get b
    rate.push('d', 1330); // slot 3 again: replaces c
    expect(rate.finish(1500)).to.equal(5); // slots 3 and 4 get d
    expect(out).to.deep.equal(['b', 'b', 'b', 'd', 'd']);
  });

  it('writes one frame for a single frame finished at once, none without frames', function () {
    const out: number[] = [];
    const rate = new ConstantFrameRate<number>(30, (frame) => out.push(frame));
    expect(new ConstantFrameRate<number>(30, () => undefined).finish(5000)).to.equal(0);
    rate.push(7, 100);
    expect(rate.finish(100)).to.equal(1);
    expect(out).to.deep.equal([7]);
  });
});

describe('video encoder (system ffmpeg)', function () {
  const encoder = new VideoEncoder({ ffmpegPath: 'ffmpeg' });
  const frame = (red: number): Promise<Buffer> =>
    sharp({ create: { width: 320, height: 240, channels: 3, background: { r: red, g: 40, b: 80 } } })
      .jpeg()
      .toBuffer();
  const spec = (format: VideoSpec['format'], overrides: Partial<VideoSpec> = {}): VideoSpec => ({
    format,
    quality: 20,
    speed: 1,
    duration: 0,
    fps: 10,
    colors: 32,
    scale: 1,
    ...overrides,
  });

  /** 2 s of frames at irregular times (every 130 ms) with fake timestamps, encoded at `video.fps`. */
  async function encode(video: VideoSpec): Promise<Buffer> {
    const recording = await encoder.start(video);
    const frames = await Promise.all([0, 60, 120, 180, 240].map(frame));
    for (let t = 0; t <= 2000; t += 130) recording.addFrame(frames[(t / 130) % frames.length]!, t);
    return recording.finish(2000);
  }

  const expected = { mp4: { codec: 'h264', pixFmt: 'yuv420p' }, webm: { codec: 'vp9', pixFmt: 'yuv420p' }, gif: { codec: 'gif', pixFmt: 'bgra' } } as const;
  for (const format of ['mp4', 'webm', 'gif'] as const) {
    it(`${format}: codec, duration at a constant rate, scale`, async function () {
      const probe = await probeVideo(await encode(spec(format, { scale: 0.5 })), format);
      expect(probe.codec).to.equal(expected[format].codec);
      expect(probe.width).to.equal(160);
      expect(probe.height).to.equal(120);
      expect(probe.duration).to.be.closeTo(2, 0.25);
    });
  }

  it('speed 2 halves the duration, speed 0.5 doubles it', async function () {
    expect((await probeVideo(await encode(spec('mp4', { speed: 2 })), 'mp4')).duration).to.be.closeTo(1, 0.2);
    expect((await probeVideo(await encode(spec('mp4', { speed: 0.5 })), 'mp4')).duration).to.be.closeTo(4, 0.3);
  });

  it('lower quality numbers make bigger files (CRF)', async function () {
    const best = await encode(spec('webm', { quality: 4 }));
    const worst = await encode(spec('webm', { quality: 60 }));
    expect(best.length).to.be.above(worst.length);
  });

  it('reports a missing ffmpeg binary', async function () {
    const broken = new VideoEncoder({ ffmpegPath: '/nonexistent/ffmpeg' });
    const recording = await broken.start(spec('mp4'));
    recording.addFrame(await frame(0), 0);
    let error: unknown = null;
    await recording.finish(500).catch((caught: unknown) => (error = caught));
    expect(String(error)).to.match(/ENOENT/);
  });
});
