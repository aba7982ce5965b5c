/**
 * The errors the API answers with. Each carries its HTTP status, the spec's machine-readable code and
 * whether its message may be shown to the client (`expose`). One Koa middleware turns them into the
 * spec's envelopes; anything that is not an ApiError becomes a generic 500 and is only logged.
 */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly extra: { fields?: FieldErrors; retryAfter?: number; details?: Record<string, unknown> } = {},
    public readonly expose = true,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const validationError = (fields: FieldErrors, message = 'Invalid parameters'): ApiError => new ApiError(400, 'VALIDATION_ERROR', message, { fields });

/** A 400 about one field. */
export const fieldError = (field: string, message: string): ApiError => validationError({ [field]: [message] });

export const invalidApiKey = (message = 'Invalid or missing API key'): ApiError => new ApiError(401, 'INVALID_API_KEY', message);

export const insufficientBalance = (message = 'Insufficient balance'): ApiError => new ApiError(403, 'INSUFFICIENT_BALANCE', message);

export const forbidden = (message = 'Forbidden'): ApiError => new ApiError(403, 'FORBIDDEN', message);

export const notFound = (what = 'Resource'): ApiError => new ApiError(404, 'NOT_FOUND', `${what} not found`);

export const payloadTooLarge = (message = 'Request body too large'): ApiError => new ApiError(413, 'PAYLOAD_TOO_LARGE', message);

export const rateLimited = (retryAfter: number): ApiError => new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'Rate limit exceeded', { retryAfter });

export const serviceUnavailable = (message = 'Service temporarily unavailable'): ApiError => new ApiError(503, 'SERVICE_UNAVAILABLE', message);
