// Hash routes (#/screenshots/123?status=finished): the control plane serves one index.html, and the
// hash never reaches the server, so every route works on reload without server-side routing.
import type { Page, PageContext } from './page.js';

export interface Route {
  pattern: string;
  page: Page;
  title: string;
  /** only without a session (login, signup): a logged-in user goes to the overview */
  public?: boolean;
  /** with or without a session (the links of account emails) */
  open?: boolean;
  admin?: boolean;
}

interface Match {
  route: Route;
  params: Record<string, string>;
  query: URLSearchParams;
}

/** The route matching the current hash, with its parameters. */
export function match(routes: Route[], hash: string): Match | null {
  const [path = '/', search = ''] = (hash.replace(/^#/, '') || '/').split('?');
  const parts = path.split('/').filter(Boolean);
  for (const route of routes) {
    const want = route.pattern.split('/').filter(Boolean);
    if (want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = want.every((w, i) => {
      const got = parts[i] ?? '';
      if (w.startsWith(':')) {
        params[w.slice(1)] = decodeURIComponent(got);
        return true;
      }
      return w === got;
    });
    if (ok) return { route, params, query: new URLSearchParams(search) };
  }
  return null;
}

export function navigate(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

/** A fresh context for one visit of a page; `leave()` runs its cleanups. */
export function pageContext(params: Record<string, string>, query: URLSearchParams): { ctx: PageContext; leave: () => void } {
  const cleanups: (() => void)[] = [];
  let alive = true;
  const ctx: PageContext = {
    params,
    query,
    onLeave: (cleanup) => cleanups.push(cleanup),
    alive: () => alive,
    every(ms, task) {
      // One run at a time: a slow answer must not pile up requests.
      let timer = 0;
      const tick = async (): Promise<void> => {
        if (!alive) return;
        try {
          await task();
        } catch {
          // A refresh that failed (the service restarting, a network blip) is tried again on the next tick;
          // the page keeps showing what it last knew.
        } finally {
          if (alive) timer = window.setTimeout(() => void tick(), ms);
        }
      };
      timer = window.setTimeout(() => void tick(), ms);
      cleanups.push(() => window.clearTimeout(timer));
    },
  };
  return {
    ctx,
    leave() {
      alive = false;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}
