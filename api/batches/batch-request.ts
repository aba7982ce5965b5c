import fs from 'node:fs/promises';
import { fieldError, payloadTooLarge } from '../../core/errors.js';
import type { QueryTree } from '../options/query-input.js';
import { bodyParser } from '../http/body-parser.js';
import { jsonBodyParams } from '../http/json-body.js';
import type { AppContext } from '../http/state.js';

/** Form fields beyond the file: every create option and the batch's own, a few hundred at most. */
const MAX_FIELDS = 300;
/** The form fields' bytes beyond the file's own limit (the list may come as a plain field named `file`). */
const FIELD_BYTES_BEYOND_FILE = 1024 * 1024;
/** The one part read as the batch file. */
const FILE_PART = 'file';

/** formidable's error codes (formidable/src/FormidableError.js) of the limits set here. */
const FORMIDABLE = { maxFieldsSizeExceeded: 1006, maxFieldsExceeded: 1007, biggerThanTotalMaxFileSize: 1009, maxFilesExceeded: 1015, biggerThanMaxFileSize: 1016 } as const;

/** Says which limit a multipart upload passed; undefined for any other error (a malformed body). */
function explainUploadError(error: Error & { code?: unknown; status?: unknown; httpCode?: unknown }, limits: { maxFileBytes: number; maxFieldBytes: number }): Error | undefined {
  switch (error.code) {
    case FORMIDABLE.biggerThanMaxFileSize:
    case FORMIDABLE.biggerThanTotalMaxFileSize:
      return payloadTooLarge(`The batch file is larger than ${limits.maxFileBytes} bytes`);
    case FORMIDABLE.maxFilesExceeded:
      return fieldError(FILE_PART, 'was sent more than once: send the list in one part named file');
    case FORMIDABLE.maxFieldsExceeded:
      return payloadTooLarge(`The form has more than ${MAX_FIELDS} fields besides the file; a batch takes far fewer options`);
    case FORMIDABLE.maxFieldsSizeExceeded:
      return payloadTooLarge(`The form fields are larger than ${limits.maxFieldBytes} bytes in total`);
    default:
      // A JSON body over its limit (jsonLimit is the file's): the list it carries is too large.
      if (error.status === 413) return payloadTooLarge(`The batch file is larger than ${limits.maxFileBytes} bytes`);
      // formidable's other errors (a malformed or truncated multipart body) carry an httpCode, not a status.
      if (error.httpCode !== undefined) return fieldError(FILE_PART, `could not be read: ${error.message.split('\n')[0] || 'malformed multipart body'}`);
      return undefined;
  }
}

/**
 * The body parser of POST /batch/create: multipart/form-data with the list in the `file` part (written
 * to a temporary file by formidable, never held whole in memory, and refused with 413 as soon as it
 * passes the limit), or a JSON body whose `file` is the list as text or whose `urls` is an array.
 * Every other part is a form field, whatever its headers: formidable takes any part with a Content-Type
 * for a file, and some clients send every field as `text/plain; charset=utf-8` (issue #16), which made
 * two such fields "two files" and the answer a false "file too large".
 */
export function batchBodyParser(maxFileBytes: number) {
  const maxFieldBytes = maxFileBytes + FIELD_BYTES_BEYOND_FILE;
  return bodyParser(
    {
      multipart: true,
      json: true,
      urlencoded: false,
      text: false,
      jsonLimit: maxFileBytes,
      formidable: {
        maxFileSize: maxFileBytes,
        maxFiles: 1,
        maxFields: MAX_FIELDS,
        maxFieldsSize: maxFieldBytes,
        allowEmptyFiles: true,
        minFileSize: 0,
        onPart: (part, handlePart) => {
          // formidable reads a part without a mimetype as a field.
          if (part.name !== FILE_PART) part.mimetype = null;
          handlePart(part);
        },
      },
    },
    (error) => explainUploadError(error, { maxFileBytes, maxFieldBytes }),
  );
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
