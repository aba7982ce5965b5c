import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Listens on 127.0.0.1 and a port the OS picks; `stop` closes the server and its open connections
 * (keep-alive clients would hold it open) and may be called more than once.
 */
export async function listenOnLoopback(server: Server): Promise<{ origin: string; stop(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let stopping: Promise<void> | null = null;
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
