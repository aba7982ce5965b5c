/**
 * AdGuard's maintained filter lists reach npm as Chrome declarativeNetRequest (DNR) rule sets
 * (@adguard/dnr-rulesets, GPL-3.0 data read as an unmodified input, see docs/operators.md). The filter
 * engine both drivers use (Ghostery's) reads Adblock Plus syntax, which DNR's `urlFilter` already is
 * (`||host^`, `|`, `*`): each rule becomes one network filter line with its conditions as options.
 * Rules the engine cannot express the way DNR means them are left out (counted in `skipped`):
 * header changes (modifyHeaders), whole-frame allowances (allowAllRequests), request-method and
 * request-domain exclusions: a left-out block rule blocks less, never more.
 */

/** The part of a DNR rule the conversion reads (chrome.declarativeNetRequest.Rule). */
export interface DnrRule {
  action: { type: string };
  condition: {
    urlFilter?: string;
    regexFilter?: string;
    isUrlFilterCaseSensitive?: boolean;
    domainType?: 'firstParty' | 'thirdParty';
    resourceTypes?: string[];
    excludedResourceTypes?: string[];
    initiatorDomains?: string[];
    excludedInitiatorDomains?: string[];
    requestDomains?: string[];
    excludedRequestDomains?: string[];
    requestMethods?: string[];
  };
}

/** DNR's resource types in Adblock Plus words; main_frame is the page itself, which a capture never blocks. */
const RESOURCE_OPTION: Record<string, string | null> = {
  main_frame: null,
  sub_frame: 'subdocument',
  stylesheet: 'stylesheet',
  script: 'script',
  image: 'image',
  font: 'font',
  object: 'object',
  xmlhttprequest: 'xmlhttprequest',
  ping: 'ping',
  media: 'media',
  websocket: 'websocket',
  other: 'other',
  csp_report: 'other',
  webtransport: 'other',
  webbundle: 'other',
};

/** The filter lines of `rules`, and how many rules had no faithful line. */
export function dnrToFilters(rules: readonly DnrRule[]): { filters: string[]; skipped: number } {
  const filters: string[] = [];
  let skipped = 0;
  for (const rule of rules) {
    const lines = filterLines(rule);
    if (lines === null) skipped += 1;
    else filters.push(...lines);
  }
  return { filters, skipped };
}

/** The filter lines of one rule (one per request domain when it names several), or null when it has none. */
export function filterLines(rule: DnrRule): string[] | null {
  const { action, condition: c } = rule;
  const exception = action.type === 'allow';
  // A redirect replaces the resource with a harmless stub (an empty script, a 1×1 GIF): for a capture, blocked.
  if (!exception && action.type !== 'block' && action.type !== 'redirect') return null;
  if (c.requestMethods || c.excludedRequestDomains) return null;
  const options: string[] = [];
  if (c.domainType === 'thirdParty') options.push('third-party');
  if (c.domainType === 'firstParty') options.push('~third-party');
  if (c.resourceTypes) {
    const types = [...new Set(c.resourceTypes.map((t) => RESOURCE_OPTION[t]).filter((t): t is string => typeof t === 'string'))];
    // Only the page itself (main_frame): nothing a capture would block.
    if (types.length === 0) return null;
    options.push(...types);
  }
  for (const type of c.excludedResourceTypes ?? []) {
    const option = RESOURCE_OPTION[type];
    if (option) options.push(`~${option}`);
  }
  const domains = [...(c.initiatorDomains ?? []), ...(c.excludedInitiatorDomains ?? []).map((d) => `~${d}`)];
  if (domains.length > 0) options.push(`domain=${domains.join('|')}`);
  if (c.isUrlFilterCaseSensitive) options.push('match-case');
  const suffix = options.length > 0 ? `$${options.join(',')}` : '';
  const prefix = exception ? '@@' : '';
  let patterns: string[];
  if (c.regexFilter !== undefined) patterns = [`/${c.regexFilter}/`];
  else if (c.requestDomains && c.urlFilter === undefined) patterns = c.requestDomains.map((d) => `||${d}^`);
  else if (c.requestDomains) return null;
  else if (c.urlFilter !== undefined) patterns = [literalPattern(c.urlFilter)];
  else return null;
  return patterns.map((pattern) => `${prefix}${pattern}${suffix}`);
}

/**
 * A urlFilter as a filter pattern: Adblock Plus reads `/…/` as a regular expression and `$` as the start
 * of options, where DNR means the characters themselves; a trailing `*` keeps the first meaning away, and
 * a pattern holding `$` is matched up to it (the engine has no escape for it), which still names the URL.
 */
function literalPattern(urlFilter: string): string {
  let pattern = urlFilter.includes('$') ? `${urlFilter.slice(0, urlFilter.indexOf('$'))}*` : urlFilter;
  if (pattern.length > 1 && pattern.startsWith('/') && pattern.endsWith('/')) pattern = `${pattern}*`;
  return pattern;
}
