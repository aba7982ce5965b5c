import sharp from 'sharp';
import fs from 'node:fs';
const [W, H, out, block] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4], process.argv[5] === '1'];
const base = sharp({ create: { width: W, height: H, channels: 3, background: '#ffffff' }, limitInputPixels: false });
const img = block ? base.composite([{ input: await sharp({ create: { width: W, height: Math.round(H / 7), channels: 3, background: '#000000' } }).png().toBuffer(), left: 0, top: Math.round(H * 5 / 7) }]) : base;
fs.writeFileSync(out, await img.png({ compressionLevel: 1 }).toBuffer());
