import sharp from 'sharp';
import { diffImages } from '/work/wt-monitors/dist/api/monitors/image-diff.js';
const W = 2000, H = 140000;
let t = Date.now();
const make = async (block) => {
  const base = sharp({ create: { width: W, height: H, channels: 3, background: '#ffffff' } , limitInputPixels: false});
  const img = block ? base.composite([{ input: await sharp({ create: { width: W, height: 20000, channels: 3, background: '#000000' } }).png().toBuffer(), left: 0, top: 100000 }]) : base;
  return img.png({ compressionLevel: 1 }).toBuffer();
};
const before = await make(false);
const after = await make(true);
console.log('made', Date.now() - t, 'ms', before.length, after.length, 'rss MB', Math.round(process.memoryUsage().rss / 1e6));
t = Date.now();
const d = await diffImages(before, after, []);
console.log('diff', Date.now() - t, 'ms', d.ratio, d.width, d.height, 'rss MB', Math.round(process.memoryUsage().rss / 1e6));
