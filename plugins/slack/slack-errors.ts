import { ErrorCode } from '@slack/web-api';
import { AppRunError } from '../contract.js';

/**
 * What a failed Slack call becomes for the runner. The WebClient is built with no retries of its own and
 * `rejectRateLimitedCalls` (slack-app.ts), so every failure reaches here at once:
 *  - Web API errors (`{ok: false, error}`, SDK code PlatformError): the ones another attempt cannot fix
 *    (PERMANENT_ERRORS: a bad or revoked token, a missing scope, a channel the app cannot post to) are
 *    `retryable: false`, with a message that says what to change; any other error code (`ratelimited`,
 *    `internal_error`, `fatal_error`, `service_unavailable`, one this table does not know) is retryable.
 *  - HTTP 429 (RateLimitedError) and HTTP 5xx / 408 (HTTPError): retryable. Other HTTP statuses: Slack's
 *    API answers 200 even for errors, so a 4xx comes from something in between (a wrong
 *    SHOTFARM_SLACK_API_URL, a proxy refusing): not retryable, the operator has to fix it.
 *  - Network failures (RequestError: refused, reset, DNS): retryable.
 *  - Invalid upload arguments (the SDK refusing what it was given): not retryable.
 *  - An aborted run rejects with the signal's own reason (the runner knows why it aborted).
 * Messages never contain the token; URLs in SDK messages (the signed upload URL) are masked.
 */

/** Web API error codes that another attempt with the same settings cannot fix, with what to do. */
const PERMANENT_ERRORS: Record<string, (c: ErrorContext) => string> = {
  invalid_auth: () => 'Slack refused the token (invalid_auth): check the bot token (xoxb-…) saved in the app settings',
  not_authed: () => 'Slack received no token (not_authed): save the bot token (xoxb-…) in the app settings',
  token_revoked: () => 'the Slack token was revoked (token_revoked): reinstall the Slack app and save its new bot token',
  token_expired: () => 'the Slack token has expired (token_expired): save a current bot token',
  account_inactive: () => 'the Slack token belongs to a deactivated user or workspace (account_inactive): save a token of an active app',
  no_permission: () => "the Slack token has no permission for this (no_permission): check the app's installation",
  not_allowed_token_type: () => 'Slack does not accept this kind of token here (not_allowed_token_type): use a bot token (xoxb-…)',
  team_access_not_granted: () => 'the Slack token has no access to this workspace (team_access_not_granted)',
  ekm_access_denied: () => 'Slack Enterprise Key Management denied access (ekm_access_denied)',
  missing_scope: (c) =>
    `the Slack token lacks the scope ${c.needed ? `"${c.needed}"` : 'this needs'} (missing_scope): ` +
    "add it to the Slack app's bot token scopes (files:write to post; channels:read and groups:read to find a channel by name) and reinstall the app",
  channel_not_found: (c) => `Slack channel ${c.channel} was not found (channel_not_found): check the channel, and invite the app if the channel is private`,
  not_in_channel: (c) => `the Slack app is not a member of channel ${c.channel} (not_in_channel): invite it to the channel (/invite @your-app)`,
  is_archived: (c) => `Slack channel ${c.channel} is archived (is_archived)`,
  restricted_action: (c) => `the workspace does not let the app post to ${c.channel} (restricted_action)`,
  posting_to_general_channel_denied: (c) => `only admins may post to ${c.channel} (posting_to_general_channel_denied)`,
  file_uploads_disabled: () => 'file uploads are disabled in this Slack workspace (file_uploads_disabled)',
  file_uploads_except_images_disabled: () => 'this Slack workspace accepts image uploads only (file_uploads_except_images_disabled)',
  invalid_arguments: () => "Slack refused the upload's arguments (invalid_arguments)",
};

interface ErrorContext {
  /** How the channel is shown in messages: `#name (C…)`, or the ID. */
  channel: string;
  needed?: string;
}

/** True when `error` is a Web API error with this code (`{ok: false, error: code}`). */
export function isSlackPlatformError(error: unknown, code: string): boolean {
  return slackErrorCode(error) === ErrorCode.PlatformError && platformData(error).error === code;
}

/** The error to throw from `run` for a failed Slack call. */
export function toAppRunError(error: unknown, where: { channel: string; signal: AbortSignal }): unknown {
  if (where.signal.aborted) return where.signal.reason;
  if (error instanceof AppRunError) return error;
  switch (slackErrorCode(error)) {
    case ErrorCode.PlatformError: {
      const data = platformData(error);
      const code = typeof data.error === 'string' ? data.error : 'unknown_error';
      const permanent = PERMANENT_ERRORS[code];
      if (permanent) return new AppRunError(permanent({ channel: where.channel, needed: typeof data.needed === 'string' ? data.needed : undefined }), { retryable: false, cause: error });
      if (code === 'ratelimited') return new AppRunError('Slack rate-limited the upload (ratelimited)', { retryable: true, cause: error });
      return new AppRunError(`Slack answered ${code}`, { retryable: true, cause: error });
    }
    case ErrorCode.RateLimitedError: {
      const retryAfter = (error as { retryAfter?: unknown }).retryAfter;
      return new AppRunError(`Slack rate-limited the upload (HTTP 429${typeof retryAfter === 'number' ? `, retry after ${retryAfter} s` : ''})`, { retryable: true, cause: error });
    }
    case ErrorCode.HTTPError: {
      const status = Number((error as { statusCode?: unknown }).statusCode);
      const retryable = status >= 500 || status === 408 || status === 429;
      return new AppRunError(retryable ? `Slack answered HTTP ${status}` : `Slack's API answered HTTP ${status}: check SHOTFARM_SLACK_API_URL and any proxy in between`, { retryable, cause: error });
    }
    case ErrorCode.RequestError: {
      const original = (error as { original?: unknown }).original;
      return new AppRunError(`could not reach Slack: ${maskUrls(original instanceof Error ? original.message : String(original))}`, { retryable: true, cause: error });
    }
    case ErrorCode.FileUploadInvalidArgumentsError:
    case ErrorCode.FileUploadReadFileDataError:
      return new AppRunError(`the Slack SDK refused the upload: ${maskUrls(messageOf(error))}`, { retryable: false, cause: error });
    default:
      // A 429 without Retry-After, an upload URL answering something odd…: worth another attempt.
      return new AppRunError(`Slack upload failed: ${maskUrls(messageOf(error))}`, { retryable: true, cause: error });
  }
}

function slackErrorCode(error: unknown): unknown {
  return error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
}

function platformData(error: unknown): Record<string, unknown> {
  const data = (error as { data?: unknown }).data;
  return data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The upload URL Slack hands out is a credential of its own: never show one. */
function maskUrls(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s,)]+/g, '<url>');
}
