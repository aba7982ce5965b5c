import { expect } from 'chai';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

type Answer = { status: number; body: any; headers: Headers };

/** One part of a hand-written multipart body: its header lines as a client wrote them, and its content. */
type Part = { headers: string[]; content: string };

/** A multipart/form-data body written byte by byte, so quoting and header spellings are the client's, not FormData's. */
function multipart(boundary: string, parts: Part[]): Buffer {
  const text = parts.map((p) => `--${boundary}\r\n${p.headers.join('\r\n')}\r\n\r\n${p.content}\r\n`).join('') + `--${boundary}--\r\n`;
  return Buffer.from(text, 'utf8');
}

/** A part as the client of issue #16 sends every form field: with a Content-Type of its own. */
const typedField = (name: string, value: string): Part => ({ headers: [`Content-Disposition: form-data; name="${name}"`, 'Content-Type: text/plain; charset=utf-8'], content: value });
const fileHeaders = ['Content-Disposition: form-data; name="file"; filename="urls.txt"', 'Content-Type: text/plain'];

/**
 * POST /batch/create as multipart: only the part named `file` is the batch file (issue #16 item 4);
 * every other part is a form field whatever its headers; each refusal says which limit was passed
 * (issue #14: thousands of small fields were answered "The batch file is larger than …").
 */
describe('batch upload: multipart parts, spellings and limits', function () {
  this.timeout(60_000);
  const MAX_FILE_BYTES = 64 * 1024;
  let api: TestApi;
  let acct: TestAccount;
  const batchCount = async (): Promise<number> => Number((await api.database.db('batches').count('* as n'))[0]?.n);

  before(async () => {
    api = await startTestApi('pglite', { SHOTFARM_BATCH_MAX_FILE_BYTES: String(MAX_FILE_BYTES) });
    acct = await api.account(1_000_000);
  });
  after(async () => api?.stop());

  const post = (body: Buffer | FormData, contentType?: string): Promise<Answer> =>
    call(api.url, '/batch/create', { method: 'POST', key: acct.key, headers: contentType ? { 'Content-Type': contentType } : {}, body: body as unknown as BodyInit });

  /** The create options of the batch's first screenshot, as /screenshot/info shows them. */
  async function firstScreenshot(res: Answer): Promise<Record<string, unknown>> {
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const info = await call(api.url, `/batch/info?id=${res.body.data[0].id}`, { key: acct.key });
    return (await call(api.url, `/screenshot/info?id=${info.body.data.screenshots[0]}`, { key: acct.key })).body.data;
  }

  function expectRefusal(res: Answer, status: number, code: string): void {
    const show = JSON.stringify(res.body);
    expect(res.status, show).to.equal(status);
    expect(res.body, show).to.include({ success: false, code });
    expect(res.body.details.request_id, show).to.be.a('string').and.not.equal('');
  }

  it('form fields with their own Content-Type (text/plain; charset=utf-8) are fields, not files', async () => {
    const boundary = 'typed-fields';
    const res = await post(
      multipart(boundary, [{ headers: fileHeaders, content: 'a.test\nb.test' }, typedField('name', 'typed fields ünïcode'), typedField('delay', '4'), typedField('html', 'true')]),
      `multipart/form-data; boundary=${boundary}`,
    );
    const shot = await firstScreenshot(res);
    expect(res.body.data[0]).to.include({ name: 'typed fields ünïcode', count: 2 });
    expect(shot).to.include({ url: 'https://a.test/', delay: 4, html: true });
  });

  it('the list itself may come as a typed part named file without a filename, with typed fields beside it', async () => {
    const form = new FormData();
    form.append('file', new Blob(['c.test\nd.test\ne.test'], { type: 'text/plain; charset=utf-8' }));
    form.append('name', new Blob(['blob fields'], { type: 'text/plain; charset=utf-8' }));
    form.append('dark', new Blob(['1'], { type: 'text/plain; charset=utf-8' }));
    const res = await post(form);
    const shot = await firstScreenshot(res);
    expect(res.body.data[0]).to.include({ name: 'blob fields', count: 3 });
    expect(shot).to.include({ url: 'https://c.test/', dark: true });
  });

  it('keeps the spellings that already worked: quoted boundary, unquoted part names, filename*=, True/False', async () => {
    const boundary = 'quoted:boundary=1';
    const res = await post(
      multipart(boundary, [
        { headers: ["Content-Disposition: form-data; name=file; filename*=UTF-8''urls%20list.txt", 'Content-Type: text/plain'], content: 'f.test\ng.test' },
        { headers: ['Content-Disposition: form-data; name=name'], content: 'unquoted' },
        { headers: ['Content-Disposition: form-data; name=html'], content: 'True' },
        { headers: ['Content-Disposition: form-data; name="dark"'], content: 'False' },
        typedField('hide_ads', 'True'),
      ]),
      `multipart/form-data; boundary="${boundary}"`,
    );
    const shot = await firstScreenshot(res);
    expect(res.body.data[0]).to.include({ name: 'unquoted', count: 2 });
    expect(shot).to.include({ url: 'https://f.test/', html: true, dark: false, hide_ads: true });
  });

  it('thousands of small form fields: 413 saying there are too many fields, not that the file is too large', async () => {
    const before = await batchCount();
    const form = new FormData();
    form.append('file', new Blob(['a.test'], { type: 'text/plain' }), 'urls.txt');
    for (let i = 0; i < 3000; i += 1) form.append(`field_${i}`, 'x');
    const res = await post(form);
    expectRefusal(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.body.error)
      .to.match(/more than 300 fields/)
      .and.not.match(/batch file/);
    expect(await batchCount()).to.equal(before);
  });

  it('two parts named file: 400 naming file, saying it was sent twice', async () => {
    const before = await batchCount();
    const boundary = 'two-files';
    const res = await post(
      multipart(boundary, [
        { headers: fileHeaders, content: 'a.test' },
        { headers: ['Content-Disposition: form-data; name="file"; filename="more.txt"', 'Content-Type: text/plain'], content: 'b.test' },
      ]),
      `multipart/form-data; boundary=${boundary}`,
    );
    expectRefusal(res, 400, 'VALIDATION_ERROR');
    expect(res.body.fields.file.join(' ')).to.match(/more than once/);
    expect(await batchCount()).to.equal(before);
  });

  it('a part with a filename under another name is read as a field, never as a second file', async () => {
    const boundary = 'named-upload';
    const res = await post(
      multipart(boundary, [
        { headers: fileHeaders, content: 'h.test' },
        { headers: ['Content-Disposition: form-data; name="name"; filename="name.txt"', 'Content-Type: text/plain'], content: 'from a file part' },
      ]),
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data[0]).to.include({ name: 'from a file part', count: 1 });
  });

  it('fields larger in total than the file limit plus 1 MiB: 413 naming the fields; a file over its limit still names the file', async () => {
    const before = await batchCount();
    const form = new FormData();
    form.append('file', new Blob(['a.test'], { type: 'text/plain' }), 'urls.txt');
    form.append('name', new Blob(['n'.repeat(MAX_FILE_BYTES + 1024 * 1024 + 1)], { type: 'text/plain; charset=utf-8' }));
    const fields = await post(form);
    expectRefusal(fields, 413, 'PAYLOAD_TOO_LARGE');
    expect(fields.body.error).to.match(/form fields are larger than/);
    const big = new FormData();
    big.append('file', new Blob(['https://example.com/\n'.repeat(MAX_FILE_BYTES / 10)], { type: 'text/plain' }), 'urls.txt');
    const file = await post(big);
    expectRefusal(file, 413, 'PAYLOAD_TOO_LARGE');
    expect(file.body.error).to.equal(`The batch file is larger than ${MAX_FILE_BYTES} bytes`);
    expect(await batchCount()).to.equal(before);
  });
});
