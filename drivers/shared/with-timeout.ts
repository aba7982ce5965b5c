/**
 * Races work that takes no timeout of its own (addScriptTag, page.evaluate, page.pdf) against a timer.
 * The work itself is not cancelled: closing the context at the end of the job ends it.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  // The losing promise may reject later (the page closed); that must not become an unhandled rejection.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
