import { defineAppPlugin, type AppEndpoints, type AppPlugin } from '../contract.js';
import { objectUrl, putObject, s3Client } from './s3-upload.js';
import { s3Settings } from './s3-settings.js';

/**
 * `s3`: uploads every output of the screenshot (each shot, HTML, PDF, video) to a bucket of any
 * S3-compatible server through the minio client. Keys come from the `path` template; output_url is the
 * first object's URL. Batches with hosting=s3 run it with the service's own storage credentials.
 */
export function createS3App(_endpoints?: AppEndpoints): AppPlugin<typeof s3Settings> {
  return defineAppPlugin({
    type: 's3',
    name: 'Amazon S3 / MinIO',
    description: 'Uploads the screenshot, HTML, PDF and video to a bucket of any S3-compatible storage.',
    settingsSchema: s3Settings,
    uploads: true,
    runsOnError: false,
    async run(ctx) {
      const client = s3Client(ctx.settings, ctx.lookup);
      const uploaded: { key: string; size: number; etag: string; url: string }[] = [];
      for (const file of ctx.files.list()) {
        const name = ctx.filename(file, ctx.settings.path);
        const key = ctx.settings.prefix ? `${ctx.settings.prefix.replace(/\/+$/, '')}/${name}` : name;
        const { etag } = await putObject(client, ctx.settings, key, await ctx.files.read(file), file.contentType, ctx.signal);
        uploaded.push({ key, size: file.size, etag, url: objectUrl(ctx.settings, key) });
      }
      ctx.log.info('uploaded to S3', { bucket: ctx.settings.bucket, objects: uploaded.length });
      return { output_url: uploaded[0]?.url ?? '', output_data: { bucket: ctx.settings.bucket, acl: ctx.settings.acl, objects: uploaded } };
    },
  });
}
