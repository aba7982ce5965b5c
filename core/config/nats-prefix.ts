/**
 * The one rule for a NATS prefix (SHOTFARM_NATS_PREFIX): the loader checks it at start and the grid's
 * NATS adapters assert it. The prefix is a subject token and the start of stream, consumer and KV bucket
 * names, so it must be valid in all of them; a letter first and 32 characters at most keep the derived
 * names (`<prefix>_node_drains`, consumer names per browser and priority) short and readable.
 */
export const NATS_PREFIX_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
export const NATS_PREFIX_RULE = 'a letter then up to 31 letters, digits or _';
