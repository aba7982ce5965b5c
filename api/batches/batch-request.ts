import fs from 'node:fs/promises';
import { koaBody } from 'koa-body';
import { fieldError, payloadTooLarge } from '../../core/errors.js';
import type { QueryTree } from '../../core/request/query-input.js';
import { jsonBodyParams } from '../http/json-body.js';
import type { AppContext } from '../http/state.js';

/** Form fields beyond the file: every create option and the batch's own, a few hundred at most. */
const MAX_FIELDS = 300;

/**
 * The body parser of POST /batch/create: multipart/form-data with the list in the `file` part (written
 * to a temporary file by formidable, never held whole in memory, and refused with 413 as soon as it
 * passes the limit), or a JSON body whose `file` is the list as text or whose `urls` is an array.
 */
export function batchBodyParser(maxFileBytes: number) {
  return koaBody({
    multipart: true,
    json: true,
    urlencoded: false,
    text: false,
    jsonLimit: maxFileBytes,
    formidable: { maxFileSize: maxFileBytes, maxFiles: 1, maxFields: MAX_FIELDS, allowEmptyFiles: true, minFileSize: 0 },
    onError: (error: Error & { httpCode?: number; status?: number }) => {
      if (error.httpCode === 413 || error.status === 413) throw payloadTooLarge(`The batch file is larger than ${maxFileBytes} bytes`);
      throw fieldError('file', `could not be read: ${error.message.split('\n')[0] ?? 'malformed body'}`);
    },
  });
}


/** The list's text and the other fields as a query tree (the form the validators take). */
export async function batchRequestOf(ctx: AppContext): Promise<{ fileText: string; fields: QueryTree }> {
  const request = ctx.request as unknown as { body?: Record<string, unknown>; files?: Record<string, unknown> };
  const body = request.body ?? {};
  // The batch's options as every POST operation reads them: body fields over query parameters.
  const fields = jsonBodyParams(ctx);
  for (const transport of ['file', 'urls', 'key']) delete fields[transport];

  const part = request.files?.file;
  const upload = (Array.isArray(part) ? part[0] : part) as { filepath?: string } | undefined;
  let fileText = '';
  if (upload?.filepath) {
    try {
      fileText = await fs.readFile(upload.filepath, 'utf8');
    } finally {
      await fs.rm(upload.filepath, { force: true });
    }
  } else if (typeof body.file === 'string') {
    fileText = body.file;
  } else if (Array.isArray(body.urls)) {
    if (!body.urls.every((u) => typeof u === 'string')) throw fieldError('urls', 'must be an array of URL strings');
    fileText = (body.urls as string[]).join('\n');
  } else if (body.file !== undefined || body.urls !== undefined) {
    throw fieldError('file', 'must be the list as text (or give urls as an array)');
  }
  return { fileText, fields };
}

