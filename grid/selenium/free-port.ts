import { createServer, type AddressInfo } from 'node:net';

/**
 * A TCP port free on `host` right now: the OS picks one for a throwaway listener, which is closed
 * again. Another process could take it before the caller binds it; on a test machine that is rare
 * enough that a failed start is the right answer.
 */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
