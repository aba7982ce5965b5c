import type { AppContext } from '../http/state.js';

/**
 * The Cache-Control of a render's answer: `private` (it needs the caller's credential, so no shared cache
 * may keep it). Signed links (beyond-v1.md part 2) answer `public, max-age=<cache>` here.
 */
export function renderCacheControl(_ctx: AppContext): string {
  return 'private';
}
