// What a page gets from the router, and what it must clean up when the user leaves it.

export interface PageContext {
  /** `:name` parts of the route */
  params: Record<string, string>;
  /** the query after `?` in the hash (filters, paging) */
  query: URLSearchParams;
  /** runs when the page is left: stop polling, revoke blob URLs */
  onLeave(cleanup: () => void): void;
  /** false once the user has moved on: late answers must not touch the screen */
  alive(): boolean;
  /** repeats `task` every `ms` until the page is left (the first run is after `ms`) */
  every(ms: number, task: () => Promise<void> | void): void;
}

export type Page = (ctx: PageContext) => Promise<Node> | Node;

/** A blob URL that lives as long as the page. */
export function pageObjectUrl(ctx: PageContext, blob: Blob): string {
  const url = URL.createObjectURL(blob);
  ctx.onLeave(() => URL.revokeObjectURL(url));
  return url;
}
