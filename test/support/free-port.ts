import net from 'node:net';

/**
 * A local port nothing listens on: one the system just gave out and took back. A service a test starts on it
 * does not collide with another test run on the machine (two suites, or two files side by side), as a fixed
 * port number did.
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
