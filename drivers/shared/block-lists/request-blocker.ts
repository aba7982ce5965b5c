import { Request, type FiltersEngine } from '@ghostery/adblocker';
import { NOTHING_BLOCKED, type BlockableResource, type BlockedCounts, type CaptureSpec } from '../../../core/capture-spec.js';
import { AdFilterMatches } from '../ad-filter-matches.js';
import type { MaintainedEngines } from './maintained-engines.js';
import { LIST_CATEGORIES, type ListCategory } from './maintained-lists.js';

/** A count of nothing blocked: the record of a capture that blocked nothing, or whose driver never got to block. */
export const nothingBlocked = (): BlockedCounts => ({ ...NOTHING_BLOCKED });

/** A capture page's blocking: its request blocker (null: nothing to block) and the ad containers' hiding (null: no ads asked). */
export interface PageBlocking {
  requests: RequestBlocker | null;
  ads: AdFilterMatches | null;
}

/**
 * The blocking `spec` asks of a page: hide_ads (or brave's shields, which block ads and trackers without a
 * word on the record) hides ad containers too; the lists' engines are loaded once per process.
 */
export async function pageBlocking(spec: CaptureSpec, braveShields: boolean, engines: MaintainedEngines): Promise<PageBlocking> {
  const ads = spec.hideAds || braveShields ? new AdFilterMatches(await engines.of('ads'), spec.hideAds) : null;
  return { requests: await RequestBlocker.forSpec(spec, braveShields, engines, ads), ads };
}

/** One request as both drivers see it: its URL, its type in the browser's words (CDP's or Playwright's), and whose page it is. */
export interface BlockableRequest {
  url: string;
  /** `Document`, `Script`, `image`, `xhr`…: compared lower-case */
  resourceType: string;
  /** the request is the top document's own navigation: never blocked, the capture is of that page */
  mainFrame: boolean;
  /** the URL of the page the request is made for, for first- and third-party rules */
  pageUrl: string;
}

/** The categories a spec asks for, in counting order; brave's shields emulation asks for ads and trackers. */
export function askedCategories(spec: CaptureSpec, braveShields: boolean): ListCategory[] {
  const asked: Record<ListCategory, boolean> = {
    chats: spec.blockChats === true,
    social: spec.blockSocial === true,
    trackers: spec.blockTrackers === true || braveShields,
    ads: spec.hideAds || braveShields,
  };
  return LIST_CATEGORIES.filter((category) => asked[category]);
}

/**
 * A `*` pattern as a regular expression over the whole URL. Users write `*.doubleclick.net/*` or
 * `https://cdn.example/*.woff2`; every other character stands for itself.
 */
export function urlPatternRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * One capture's blocking: which requests are not sent and why, counted per category for the record.
 * A request is judged against `block_urls`, then `block_resources`, then the maintained lists in the order
 * chats, social, trackers, ads: it counts once, in the first that matches (beyond-v1.md part 6).
 * Both drivers ask it for every request of the page before the request is sent.
 */
export class RequestBlocker {
  readonly counts = nothingBlocked();

  private constructor(
    private readonly lists: readonly { category: ListCategory; engine: FiltersEngine }[],
    private readonly resources: ReadonlySet<string>,
    private readonly urls: readonly RegExp[],
    /** hide_ads' account (its warning when nothing matched); null without hide_ads */
    private readonly ads: AdFilterMatches | null,
  ) {}

  /** The capture's blocker, its lists' engines loaded (once per process, see maintained-engines.ts); null when the spec blocks nothing. */
  static async forSpec(spec: CaptureSpec, braveShields: boolean, engines: MaintainedEngines, ads: AdFilterMatches | null): Promise<RequestBlocker | null> {
    const categories = askedCategories(spec, braveShields);
    const resources: readonly BlockableResource[] = spec.blockResources ?? [];
    const urls = spec.blockUrls ?? [];
    if (categories.length === 0 && resources.length === 0 && urls.length === 0) return null;
    const lists = await Promise.all(categories.map(async (category) => ({ category, engine: await engines.of(category) })));
    return new RequestBlocker(lists, new Set(resources), urls.map(urlPatternRegExp), ads);
  }

  /** The category `request` is blocked in (and counted in now), or null when it may be sent. */
  judge(request: BlockableRequest): keyof BlockedCounts | null {
    if (request.mainFrame) return null;
    const category = this.categoryOf(request);
    if (category !== null) {
      this.counts[category] += 1;
      if (category === 'ads') this.ads?.requestBlocked();
    }
    return category;
  }

  private categoryOf({ url, resourceType, pageUrl }: BlockableRequest): keyof BlockedCounts | null {
    if (!/^(https?|wss?):/i.test(url)) return null;
    if (this.urls.some((pattern) => pattern.test(url))) return 'urls';
    let type = resourceType.toLowerCase();
    if (this.resources.has(type)) return 'resources';
    if (this.lists.length === 0) return null;
    // A document that is not the top one loads in a frame: the lists call it a sub_frame.
    if (type === 'document') type = 'sub_frame';
    const filterRequest = Request.fromRawDetails({ url, sourceUrl: pageUrl, type: type as Parameters<typeof Request.fromRawDetails>[0]['type'] });
    for (const { category, engine } of this.lists) if (engine.match(filterRequest).match) return category;
    return null;
  }
}
