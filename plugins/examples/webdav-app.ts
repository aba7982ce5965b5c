import { z } from 'zod';
import { AppRunError, defineAppPlugin, secret, sendRequest } from '../plugin-sdk.js';

/**
 * The example plugin of plugins/README.md: uploads every output of a screenshot to a WebDAV server (or any
 * server that takes HTTP PUT: nginx's dav module, Nextcloud, Apache mod_dav) with optional basic auth.
 * Not a built-in: load it with SHOTFARM_PLUGINS=./dist/plugins/examples/webdav-app.js. Outside this
 * repository, import from 'shotfarm/plugin-sdk' instead of '../plugin-sdk.js'.
 */
const settingsSchema = z.object({
  base_url: z.url({ protocol: /^https?$/ }).describe('Folder URL files are PUT into, e.g. https://dav.example.com/shots/'),
  username: z.string().max(200).optional(),
  password: secret(z.string().max(200)).optional(),
  path: z.string().max(500).optional().describe('File name template, e.g. {domain}/{id} (variables as in batch filename templates).'),
});

export default defineAppPlugin({
  type: 'webdav',
  name: 'WebDAV',
  description: 'Uploads the screenshot and its other outputs to a WebDAV folder with HTTP PUT.',
  settingsSchema,
  uploads: true,
  runsOnError: false,
  async run(ctx) {
    const base = ctx.settings.base_url.endsWith('/') ? ctx.settings.base_url : `${ctx.settings.base_url}/`;
    const auth: Record<string, string> = ctx.settings.username ? { authorization: `Basic ${Buffer.from(`${ctx.settings.username}:${ctx.settings.password ?? ''}`).toString('base64')}` } : {};
    const uploaded: string[] = [];
    for (const file of ctx.files.list()) {
      // ctx.filename renders the template safely (no `..`), so the URL stays inside base_url.
      const url = new URL(ctx.filename(file, ctx.settings.path).split('/').map(encodeURIComponent).join('/'), base);
      const body = await ctx.files.read(file);
      const res = await sendRequest(url, { method: 'PUT', headers: { 'content-type': file.contentType, 'content-length': body.length, ...auth }, body, egress: ctx.egress, signal: ctx.signal });
      // 401/403/404/409 (missing folder) will not change on retry; 5xx and 429 may.
      if (res.status >= 300) throw new AppRunError(`PUT ${url.pathname} answered ${res.status}`, { retryable: res.status >= 500 || res.status === 429 });
      uploaded.push(url.href);
    }
    ctx.log.info('uploaded to WebDAV', { files: uploaded.length });
    return { output_url: uploaded[0] ?? '', output_data: { files: uploaded } };
  },
});
