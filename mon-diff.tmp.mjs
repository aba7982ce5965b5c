import fs from 'node:fs';
import { diffImages } from './dist/api/monitors/image-diff.js';
const t = Date.now();
const d = await diffImages(fs.readFileSync(process.argv[2]), fs.readFileSync(process.argv[3]), []);
console.log('diff', Date.now() - t, 'ms ratio', d.ratio.toFixed(4), d.width, 'x', d.height);
