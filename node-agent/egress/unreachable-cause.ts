/** Why the guard could not reach an allowed destination, as the record says it (issue #17: honest outcomes). */
export type UnreachableCause = 'dns' | 'refused' | 'reset' | 'timeout' | 'no-route' | 'other';

/** One request the guard let through but could not deliver: the host the browser asked for, and why. */
export interface UnreachableRequest { host: string; port: number; cause: UnreachableCause }

/** The cause of a failed resolution or connection, from Node's error code. */
export function unreachableCause(error: unknown): UnreachableCause {
  const code = (error as { code?: string } | null)?.code ?? '';
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'ENODATA', 'EAI_FAIL'].includes(code) || /has no address/.test(String(error))) return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  if (code === 'ETIMEDOUT' || /timed out/.test(String(error))) return 'timeout';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'no-route';
  return 'other';
}

/** One plain sentence naming the host and the cause: what a record that ended this way says. */
export function unreachableSentence(request: UnreachableRequest): string {
  const where = `${request.host}:${request.port}`;
  switch (request.cause) {
    case 'dns': return `Could not resolve host ${request.host}.`;
    case 'refused': return `${where} refused the connection.`;
    case 'reset': return `${where} reset the connection.`;
    case 'timeout': return `${where} did not answer in time.`;
    case 'no-route': return `${where} is unreachable: there is no route to it.`;
    case 'other': return `${where} could not be reached.`;
  }
}
