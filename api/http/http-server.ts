import http from 'node:http';
import type { Socket } from 'node:net';

/**
 * GET /screenshot/create carries post_data and script_inline (64 KiB each) plus up to 100 URLs in its
 * query string, far past Node's default 16 KiB header limit. 512 KiB fits every valid request with room
 * to spare, so an oversized value reaches the validator and gets a 400 that names it.
 */
export const MAX_REQUEST_HEAD_BYTES = 512 * 1024;

/** An HTTP server for a request handler, whose protocol-level rejections also use the error envelope. */
export function createHttpServer(handler: http.RequestListener): http.Server {
  const server = http.createServer({ maxHeaderSize: MAX_REQUEST_HEAD_BYTES }, handler);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify({
      success: false,
      error: tooLarge ? 'Request line and headers are too large' : 'Malformed HTTP request',
      code: tooLarge ? 'REQUEST_TOO_LARGE' : 'BAD_REQUEST',
      details: {},
    });
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    return undefined;
  });
  return server;
}
