/**
 * s3rver in a process of its own, for the speed benchmark's distributed mode: in the bench's process its
 * CPU and memory could not be told apart from the raw loop's and the client's, and an S3 server is a
 * separate process in any real deployment. Prints `{"endpoint":"http://127.0.0.1:<port>"}` as one line on
 * stdout once it listens; stops (and removes its data folder) on SIGTERM or SIGINT.
 *
 *   node dist/test/bench/s3rver-process.js
 */
import { startS3rver } from '../support/s3rver.js';

const server = await startS3rver();
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  server.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`s3rver: stop failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdout.write(`${JSON.stringify({ endpoint: server.endpoint })}\n`);
