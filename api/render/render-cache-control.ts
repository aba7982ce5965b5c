import type { AppContext } from '../http/state.js';

/**
 * The Cache-Control of a render's answer. An unsigned render is `private`: it needs the caller's credential, so
 * no shared cache may keep it. A signed link (beyond-v1.md part 2; api/auth/signed-links.ts verified it) is the
 * same answer for whoever holds the URL, so it is `public, max-age=<the record's cache seconds>` (a signed
 * link's `cache` defaults to 86400): a CDN in front serves its repeats without reaching the service.
 */
export function renderCacheControl(ctx: AppContext, cacheSeconds: number): string {
  return ctx.state.signedLink ? `public, max-age=${cacheSeconds}` : 'private';
}
