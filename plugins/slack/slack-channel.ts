import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { AppRunError } from '../contract.js';
import { isSlackPlatformError } from './slack-errors.js';

/**
 * The `channel` setting: a channel ID (`C0123ABCDE`, `G…` for old private channels, `D…` for a direct
 * message), used as it is, or a channel name (`general`, `#general`), which files.completeUploadExternal
 * does not accept: it is looked up with conversations.list.
 *
 * Decisions:
 *  - What is an ID: CHANNEL_ID, upper case letters and digits. Slack channel names are lower case, so
 *    a name can never look like an ID; anything else must match CHANNEL_NAME (the schema says so).
 *  - The lookup asks for public and private channels (scopes channels:read and groups:read). When the
 *    token lacks the private scope (missing_scope), it asks again for public channels only, so a token
 *    with channels:read alone can still post to a public channel by name. Archived channels are skipped.
 *  - Found names are cached per plugin instance (keyed by a hash of the token and the name, for
 *    CACHE_TTL_MS, at most CACHE_MAX entries): a batch of a thousand screenshots must not page through
 *    conversations.list (rate tier 2) a thousand times. The app forgets an entry when a run with it
 *    fails for good (channel_not_found, not_in_channel, is_archived…: a channel renamed or recreated).
 *  - Not found after every page (at most MAX_PAGES of PAGE_SIZE): channel_not_found, not retryable.
 */

export const CHANNEL_ID = /^[CGD][A-Z0-9]{8,}$/;
/** Lower case letters (any script), digits, `-`, `_` and `.`, at most 80, optionally after `#`. */
export const CHANNEL_NAME = /^#?[\p{Ll}\p{Lo}\p{Nd}_.-]{1,80}$/u;

const PAGE_SIZE = 999;
const MAX_PAGES = 100;
const CACHE_TTL_MS = 10 * 60_000;
const CACHE_MAX = 1000;

export interface ResolvedChannel {
  id: string;
  /** How messages show it: `#name (C…)` or the ID. */
  label: string;
  /** Set when it came from a name, so a failed post can forget it. */
  cacheKey: string | null;
}

export function isChannelSetting(value: string): boolean {
  return CHANNEL_ID.test(value) || CHANNEL_NAME.test(value);
}

export class ChannelNameCache {
  private readonly entries = new Map<string, { id: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  key(token: string, name: string): string {
    return createHash('sha256').update(token).update('\0').update(name).digest('hex');
  }

  get(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.id;
  }

  set(key: string, id: string): void {
    this.entries.delete(key);
    this.entries.set(key, { id, expires: this.now() + CACHE_TTL_MS });
    while (this.entries.size > CACHE_MAX) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}

export async function resolveChannel(client: WebClient, token: string, setting: string, cache: ChannelNameCache): Promise<ResolvedChannel> {
  if (CHANNEL_ID.test(setting)) return { id: setting, label: setting, cacheKey: null };
  const name = setting.replace(/^#/, '');
  const cacheKey = cache.key(token, name);
  const cached = cache.get(cacheKey);
  if (cached) return { id: cached, label: `#${name} (${cached})`, cacheKey };

  let id: string | null;
  try {
    id = await findChannel(client, name, 'public_channel,private_channel');
  } catch (error) {
    if (!isSlackPlatformError(error, 'missing_scope')) throw error;
    id = await findChannel(client, name, 'public_channel');
  }
  if (!id) {
    throw new AppRunError(`Slack channel #${name} was not found (channel_not_found): check the name, ` + 'invite the app if the channel is private, or give the channel ID instead', {
      retryable: false,
    });
  }
  cache.set(cacheKey, id);
  return { id, label: `#${name} (${id})`, cacheKey };
}

async function findChannel(client: WebClient, name: string, types: string): Promise<string | null> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.conversations.list({ types, exclude_archived: true, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    const found = result.channels?.find((c) => c.name === name || c.name_normalized === name);
    if (found?.id) return found.id;
    cursor = result.response_metadata?.next_cursor;
    if (!cursor) return null;
  }
  return null;
}
