import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real S3 server for tests: s3rver (https://github.com/jamhall/s3rver), in this process, on 127.0.0.1 and
 * a port the OS picks, storing into a fresh temp folder. It has no multipart upload, so tests give sizes
 * and keep objects small. It checks presigned URLs' expiry but not their V4 signatures.
 */

/** The part of s3rver's programmatic API used here (the package ships no types). */
interface S3rverOptions {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
}
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  /** Set by run(); closed by close(). */
  httpServer?: Server;
}

// s3rver is CommonJS without type declarations: load it through require and give it the shape above.
const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (options: S3rverOptions) => S3rverInstance;

/** The one account s3rver knows. */
export const S3RVER_CREDENTIALS = { accessKey: 'S3RVER', secretKey: 'S3RVER' } as const;

/** One request as the server received it. */
export interface S3rverRequest {
  method: string;
  /** path and query, e.g. `/bucket/key?acl` */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface RunningS3rver {
  /** `http://<address>:<port>` */
  endpoint: string;
  /** every request received so far, in order: what reached the server, whatever it stored (s3rver keeps no ACL) */
  requests: S3rverRequest[];
  /** Stops the server (open connections included) and removes its data; safe to call twice. */
  stop(): Promise<void>;
}

/** `address`: any loopback address (127.0.0.0/8), so one suite can run servers the egress guard tells apart. */
export async function startS3rver(address = '127.0.0.1'): Promise<RunningS3rver> {
  const directory = await mkdtemp(join(tmpdir(), 'shotfarm-s3rver-'));
  // Port 0: the OS picks a free port, so parallel runs never collide.
  const server = new S3rver({ address, port: 0, silent: true, directory });
  const bound = await server.run();
  const requests: S3rverRequest[] = [];
  server.httpServer?.on('request', (req: IncomingMessage) => requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers }));
  let stopping: Promise<void> | null = null;
  return {
    endpoint: `http://${address}:${bound.port}`,
    requests,
    stop(): Promise<void> {
      stopping ??= (async () => {
        const closed = server.close();
        // close() waits for open connections; the client's keep-alive sockets would hold it up.
        server.httpServer?.closeAllConnections();
        await closed;
        await rm(directory, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
