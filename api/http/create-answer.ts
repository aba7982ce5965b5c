import type { ClientCompat } from '../../core/config/config.js';

/**
 * `data` of a create answer (GET /screenshot/create, POST /batch/create). The spec answers an array;
 * the original service's five official clients read `data` as ONE object (`shot["id"]`, `getLong("id")`),
 * so with SHOTFARM_CLIENT_COMPAT=screenshotcenter a create that made exactly one record answers that
 * record. Several records stay an array: an object would hide all but one of them.
 */
export function createAnswerData<T>(records: T[], compat: ClientCompat): T | T[] {
  return compat === 'screenshotcenter' && records.length === 1 ? (records[0] as T) : records;
}
