import { z } from 'zod';

/** The fields and envelopes the features' response shapes share (each feature's `<feature>-shapes.ts`). */

export const dateTime = z.string().describe('ISO 8601 date-time');
export const dateTimeOrEmpty = z.string().describe('ISO 8601 date-time, or an empty string when it has not happened');
export const unixSeconds = z.number().int().describe('Unix timestamp (seconds); 0 when it has not happened');
export const recordStatus = z.enum(['processing', 'finished', 'error']);

/** A create answers an array; with SHOTFARM_CLIENT_COMPAT=screenshotcenter a one-record create answers that record. */
export const createAnswer = <T extends z.ZodType>(item: T): z.ZodType => z.union([z.array(item), item]);

/** An acknowledgement: the request was carried out. */
export const Ack = z.looseObject({ ok: z.boolean() });
