/**
 * Chromium command-line flags for every launch, each one for a reason:
 * the browsers run headless in containers and on servers, and each capture must start from nothing.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox', // containers usually lack the user namespaces Chromium's sandbox needs (and we run as root)
  '--disable-gpu', // no GPU on a server: skip GPU process start-up and its fallbacks
  '--disable-dev-shm-usage', // Docker's /dev/shm is 64 MB; shared memory goes to /tmp instead of crashing tabs
  '--disable-background-networking', // no safe-browsing, suggestions or variations traffic next to the page's own
  '--disable-component-update', // no component downloads (there is no internet on a farm node anyway)
  '--disable-sync', // no account sync
  '--no-first-run', // no first-run dialogs or welcome page
  // WebRTC may not send UDP around the context's proxy: with the egress guard (SSRF protection) as the
  // proxy, a page could otherwise reach private addresses (or reveal the node's own) over ICE/STUN.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];
