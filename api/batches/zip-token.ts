import { signLinkToken, verifyLinkToken } from '../retrieval/link-token.js';

/**
 * Tokens for a batch's `zip_url` (GET /batch/download?id=…&token=…): signed links of kind `batch`
 * (api/retrieval/link-token.ts), the HMAC-SHA256 of `batch:<id>:<expires>`.
 */
export const signZipToken = (secret: string, batchId: number | string, expiresAtUnix: number): string => signLinkToken(secret, 'batch', batchId, expiresAtUnix);

export const verifyZipToken = (secret: string, batchId: number | string, token: unknown, nowUnix: number): boolean => verifyLinkToken(secret, 'batch', batchId, token, nowUnix);
