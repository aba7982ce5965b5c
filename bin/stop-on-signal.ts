/**
 * Runs until SIGINT/SIGTERM, then stops the started parts in reverse order and exits 0. Returns that
 * stop, for the other clean ending: an agent drained on an operator's request.
 */
export function stopOnSignal(stoppers: (() => Promise<void>)[]): (reason: string) => Promise<void> {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`shotfarm: ${signal} received, stopping\n`);
    for (const s of [...stoppers].reverse()) await s().catch((e: unknown) => process.stderr.write(`shotfarm: stop failed: ${String(e)}\n`));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return stop;
}
