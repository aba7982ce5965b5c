// The pages the container tests capture, served inside the test farm's network (no internet here):
//   /          a page with a title, text, and two bands the tests look for in the PNG: red at y 200-399,
//              blue at y 400-599 (absolutely placed, so fonts do not move them)
//   /slow?ms=N the same page after N milliseconds (keeps captures in flight while an agent is killed)
// Every request is counted per path at /count, so a test can tell how often a page was fetched.
import http from 'node:http';

const counts = new Map();
const page = (title) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>body{margin:0;font:24px sans-serif} .a,.b{position:absolute;left:0;right:0;height:200px} .a{top:200px;background:#e4002b} .b{top:400px;background:#0047ab} p{position:absolute;top:620px}</style></head>
<body><h1>${title}</h1><div class="a"></div><div class="b"></div><p>日本語 emoji 🙂</p></body></html>`;

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    if (url.pathname === '/count') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(Object.fromEntries(counts)));
    } else if (url.pathname === '/slow') {
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page(`slow ${url.searchParams.get('n') ?? ''}`)), Number(url.searchParams.get('ms') ?? 3000));
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(page('shotfarm container test'));
    }
  })
  .listen(8000, '0.0.0.0');
// PID 1 in its container: stop at once on the stop signal instead of waiting for the kill.
process.on('SIGTERM', () => process.exit(0));
