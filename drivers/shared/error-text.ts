/** The first line of an error's message: Playwright appends call logs that do not belong in a warning. */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).trim();
}
