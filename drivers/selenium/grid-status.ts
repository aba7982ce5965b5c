/** A grid answers /status in milliseconds; 5 s without an answer means it is not there. */
const STATUS_TIMEOUT_MS = 5_000;

/** True when the grid at `gridUrl` reports that it can start sessions (W3C /status `ready`). */
export async function gridReady(gridUrl: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('status', gridUrl.endsWith('/') ? gridUrl : `${gridUrl}/`), { signal: AbortSignal.timeout(STATUS_TIMEOUT_MS) });
    const body = (await response.json()) as { value?: { ready?: boolean } };
    return body.value?.ready === true;
  } catch {
    return false;
  }
}
