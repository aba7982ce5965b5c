import { z } from 'zod';
import { S3_BUCKET_NAME } from '../../core/storage/bucket-name.js';
import { secret } from '../secret-setting.js';

export const s3Settings = z.object({
  endpoint: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    // zod runs refinements after a failed format check too: a text that is no URL is left to that check.
    .refine((u) => {
      const url = URL.parse(u);
      return url === null || ((url.pathname === '/' || url.pathname === '') && url.search === '');
    }, "must be the server's base URL, without a path or query")
    .default('https://s3.amazonaws.com')
    .describe('S3 endpoint (MinIO, AWS, any S3-compatible server).'),
  region: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1')
    .default('us-east-1'),
  bucket: z.string().regex(S3_BUCKET_NAME, 'must be a valid S3 bucket name'),
  access_key: secret(z.string().min(1).max(256)),
  secret_key: secret(z.string().min(1).max(256)),
  prefix: z
    .string()
    .max(200)
    .regex(/^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\\\x00-\x1f\x7f]*$/, 'must be a relative folder without . or .. segments, backslashes or control characters')
    .optional()
    .describe('Folder every key is put under (kept even when a batch names the files).'),
  path: z.string().max(1000).optional().describe('Object key template, e.g. screenshots/{domain}/{id} (variables as in batch filename templates).'),
  acl: z.enum(['private', 'public-read']).default('private').describe('private (owner full control) or public-read.'),
  public_url: z
    .union([z.literal(''), z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL, or '' for no link" })])
    .refine((u) => u === '' || URL.parse(u)?.search === '', 'must not have a query')
    .optional()
    .describe(
      "Base URL readers reach the server at (a CDN, the server's public name), used for output_url instead of the endpoint: <public_url>/<bucket>/<key> (path style) or the bucket as a sub-domain of its host. '' gives no link.",
    ),
  path_style: z.boolean().default(true).describe('Address the bucket in the path (MinIO and most S3 servers) rather than as a sub-domain (AWS virtual-hosted style).'),
});

export type S3Settings = z.output<typeof s3Settings>;
