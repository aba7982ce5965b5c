import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ObjectNotFoundError } from '../../core/contracts/object-store.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import { BodySizeError } from '../../core/storage/body-size.js';
import { loadConfig } from '../../core/config/load-config.js';
import { registerAdapters } from '../../core/di/adapters.js';
import { newContainer, TOKENS } from '../../core/di/tokens.js';
import { createLogger } from '../../core/logger.js';
import { objectStoreAdapters, type StartableObjectStore } from '../../core/storage/object-store-adapters.js';
import { FilesystemObjectStore, verifyObjectSignature } from '../../core/storage/filesystem-store.js';
import { InvalidObjectKeyError } from '../../core/storage/object-key.js';
import { S3ObjectStore } from '../../core/storage/s3-store.js';
import { CONTENT_TYPES, htmlKey, screenshotPrefix, shotKey, videoKey } from '../../core/storage/storage-keys.js';
import { S3RVER_CREDENTIALS, startS3rver } from '../support/s3rver.js';

/** One store on its backend, plus what the contract needs to reach around the store. */
interface StoreUnderTest {
  /** Initialised and ready. */
  store: ObjectStore;
  /** Another store on the same backend (a new bucket / folder), not initialised yet. */
  fresh(): StartableObjectStore;
  /** Reads a signed URL as a client without credentials would: the object, or null when refused. */
  readSigned(url: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  /** Takes the backend away (stops the server / removes the folder). */
  takeDown(): Promise<void>;
  dispose(): Promise<void>;
}

/** reachable() of a store whose backend is gone must answer within this (its timeout is set below it). */
const REACHABLE_BUDGET_MS = 1_500;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A deterministic body of `total` bytes in 64 KiB chunks (the size of a file read chunk), each chunk
 * different so a lost or reordered chunk changes the digest. Generated lazily: never held whole.
 */
function* patternChunks(total: number): Generator<Buffer> {
  const chunkSize = 64 * 1024;
  for (let offset = 0, i = 0; offset < total; offset += chunkSize, i += 1) {
    const seed = createHash('sha256').update(`chunk ${i}`).digest();
    yield Buffer.alloc(Math.min(chunkSize, total - offset), seed);
  }
}

function objectStoreContract(name: string, factory: () => Promise<StoreUnderTest>): void {
  describe(`ObjectStore contract: ${name}`, function () {
    let subject: StoreUnderTest;
    let store: ObjectStore;
    before(async function () {
      subject = await factory();
      store = subject.store;
    });
    after(async function () {
      await subject?.dispose();
    });

    it('round-trips a Buffer and reports key, size and type', async function () {
      const body = Buffer.from('\x89PNG not really a png');
      const stored = await store.put('rt/buffer.png', body, { contentType: CONTENT_TYPES.image });
      expect(stored).to.deep.equal({ key: 'rt/buffer.png', size: body.length, contentType: 'image/png' });
      expect(await readAll(await store.get('rt/buffer.png'))).to.deep.equal(body);
    });

    it('round-trips a stream with its declared size', async function () {
      const parts = [Buffer.from('<html>'), Buffer.from('<body>hi</body>'), Buffer.from('</html>')];
      const size = parts.reduce((sum, part) => sum + part.length, 0);
      const stored = await store.put('rt/stream.html', Readable.from(parts), { contentType: CONTENT_TYPES.html, size });
      expect(stored).to.deep.equal({ key: 'rt/stream.html', size, contentType: 'text/html; charset=utf-8' });
      expect((await readAll(await store.get('rt/stream.html'))).toString()).to.equal('<html><body>hi</body></html>');
    });

    it('stores a small stream without a declared size', async function () {
      const stored = await store.put('rt/unsized.pdf', Readable.from([Buffer.from('%PDF-1.7'), Buffer.from(' tiny')]), { contentType: CONTENT_TYPES.pdf });
      expect(stored.size).to.equal(13);
      expect(await store.stat('rt/unsized.pdf')).to.deep.equal({ key: 'rt/unsized.pdf', size: 13, contentType: 'application/pdf' });
    });

    it('stats an object: its size and its exact content type, parameters included', async function () {
      await store.put(htmlKey('st1'), Buffer.from('<p>ü</p>'), { contentType: CONTENT_TYPES.html });
      expect(await store.stat(htmlKey('st1'))).to.deep.equal({ key: 'screenshots/st1/page.html', size: 9, contentType: 'text/html; charset=utf-8' });
    });

    it('a missing key: get rejects with ObjectNotFoundError, stat answers null', async function () {
      const error = await store.get('missing/nothing.png').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ObjectNotFoundError);
      expect((error as ObjectNotFoundError).key).to.equal('missing/nothing.png');
      expect(await store.stat('missing/nothing.png')).to.equal(null);
    });

    it('a prefix of stored objects is not itself an object', async function () {
      await store.put('folderish/inner/a.png', Buffer.from('a'), { contentType: 'image/png' });
      expect(await store.stat('folderish/inner')).to.equal(null);
      const error = await store.get('folderish/inner').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ObjectNotFoundError);
    });

    it('overwrites: the second put replaces bytes, size and type', async function () {
      await store.put('ow/video', Buffer.from('first version, longer'), { contentType: 'video/mp4' });
      await store.put('ow/video', Readable.from([Buffer.from('second')]), { contentType: 'video/webm', size: 6 });
      expect(await store.stat('ow/video')).to.deep.equal({ key: 'ow/video', size: 6, contentType: 'video/webm' });
      expect((await readAll(await store.get('ow/video'))).toString()).to.equal('second');
    });

    it('delete(prefix) removes exactly the keys starting with the prefix and counts them', async function () {
      const keys = ['del/1/a.png', 'del/1/deep/b.png', 'del/12/c.png', 'del/2/d.png', 'dela/e.png'];
      for (const key of keys) await store.put(key, Buffer.from(key), { contentType: 'image/png' });

      expect(await store.delete('del/1/')).to.equal(2);
      expect(await store.stat('del/1/a.png')).to.equal(null);
      expect(await store.stat('del/1/deep/b.png')).to.equal(null);
      for (const kept of ['del/12/c.png', 'del/2/d.png', 'dela/e.png']) expect(await store.stat(kept), kept).to.not.equal(null);

      // A prefix is a string prefix, not a folder: `del/1` also matches `del/12/…`.
      expect(await store.delete('del/1')).to.equal(1);
      expect(await store.stat('del/12/c.png')).to.equal(null);
      expect(await store.delete('del/')).to.equal(1);
      expect(await store.stat('dela/e.png')).to.not.equal(null);
      expect(await store.delete('del/')).to.equal(0);
      // The emptied place takes new objects again.
      await store.put('del/1/a.png', Buffer.from('again'), { contentType: 'image/png' });
      expect((await readAll(await store.get('del/1/a.png'))).toString()).to.equal('again');
    });

    it('a screenshot prefix deletes that screenshot only', async function () {
      for (const id of ['7', '77']) {
        await store.put(shotKey(id, 1), Buffer.from('png'), { contentType: CONTENT_TYPES.image });
        await store.put(videoKey(id, 'webm'), Buffer.from('webm'), { contentType: CONTENT_TYPES.webm });
      }
      expect(await store.delete(screenshotPrefix('7'))).to.equal(2);
      expect(await store.stat(shotKey('77', 1))).to.not.equal(null);
      expect(await store.stat(videoKey('77', 'webm'))).to.deep.equal({ key: 'screenshots/77/video.webm', size: 4, contentType: 'video/webm' });
    });

    const badKeys = [
      '',
      '/etc/passwd',
      '../escape',
      'a/../../escape',
      'a/./b',
      'a//b',
      'a/',
      '.hidden',
      'a/.meta',
      'nul\0byte',
      'line\nfeed',
      'del\x7f',
      'back\\slash',
      'x'.repeat(1025),
      `a/${'y'.repeat(201)}`,
      'lone\ud800surrogate',
    ];
    it('refuses bad keys in every operation, before touching storage', async function () {
      for (const key of badKeys) {
        const label = JSON.stringify(key);
        for (const attempt of [() => store.put(key, Buffer.from('x'), { contentType: 'image/png' }), () => store.get(key), () => store.stat(key), () => store.signedUrl(key, 60)]) {
          const error = await attempt().then(
            () => null,
            (e: unknown) => e,
          );
          expect(error, label).to.be.instanceOf(InvalidObjectKeyError);
        }
      }
      for (const prefix of ['', '/', '../', 'a/../', '/etc', 'x\0']) {
        const error = await store.delete(prefix).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, JSON.stringify(prefix)).to.be.instanceOf(InvalidObjectKeyError);
      }
    });

    it('refuses a content type that could inject a header', async function () {
      const error = await store.put('ct/evil.html', Buffer.from('x'), { contentType: 'text/html\r\nSet-Cookie: a=b' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(TypeError);
      expect(await store.stat('ct/evil.html')).to.equal(null);
    });

    it('refuses a body whose size differs from the declared size, storing nothing', async function () {
      const short = await store.put('size/short', Readable.from([Buffer.from('abc')]), { contentType: 'image/png', size: 5 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(short).to.be.instanceOf(BodySizeError);
      const long = await store.put('size/long', Readable.from([Buffer.from('abcdefg')]), { contentType: 'image/png', size: 5 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(long).to.be.instanceOf(BodySizeError);
      const buffer = await store.put('size/buffer', Buffer.from('abc'), { contentType: 'image/png', size: 4 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(buffer).to.be.instanceOf(BodySizeError);
      for (const key of ['size/short', 'size/long', 'size/buffer']) expect(await store.stat(key), key).to.equal(null);
    });

    it('streams a 6 MiB object in and out, byte for byte', async function () {
      const total = 6 * 1024 * 1024;
      const expected = createHash('sha256');
      for (const chunk of patternChunks(total)) expected.update(chunk);

      const stored = await store.put(videoKey('big', 'mp4'), Readable.from(patternChunks(total)), { contentType: CONTENT_TYPES.mp4, size: total });
      expect(stored.size).to.equal(total);
      expect((await store.stat(videoKey('big', 'mp4')))?.size).to.equal(total);

      const actual = createHash('sha256');
      let bytes = 0;
      let chunks = 0;
      for await (const chunk of await store.get(videoKey('big', 'mp4'))) {
        actual.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
        chunks += 1;
      }
      expect(bytes).to.equal(total);
      expect(actual.digest('hex')).to.equal(expected.digest('hex'));
      // Delivered in pieces, not as one buffer of the whole object.
      expect(chunks).to.be.greaterThan(1);
    });

    it('keys with spaces and non-ASCII characters work, signed links included', async function () {
      const key = 'odd names/ünï cødé (1).png';
      await store.put(key, Buffer.from('odd'), { contentType: 'image/png' });
      expect((await readAll(await store.get(key))).toString()).to.equal('odd');
      const read = await subject.readSigned(await store.signedUrl(key, 60));
      expect(read?.bytes.toString()).to.equal('odd');
    });

    it('a signed URL reads the object without credentials, and stops working after it expires', async function () {
      const key = shotKey('signed', 1);
      const body = Buffer.from('signed bytes');
      await store.put(key, body, { contentType: CONTENT_TYPES.image });
      const lasting = await store.signedUrl(key, 600);
      const brief = await store.signedUrl(key, 1);

      const read = await subject.readSigned(lasting);
      expect(read?.bytes).to.deep.equal(body);
      expect(read?.contentType).to.equal('image/png');

      // A 1 s link lives at most 2 s (its expiry is rounded up to whole seconds, plus S3's truncated
      // signing time): 3 s later it must be refused.
      await sleep(3_000);
      expect(await subject.readSigned(brief)).to.equal(null);
      expect(await subject.readSigned(lasting)).to.not.equal(null);
    });

    it('a signed URL for a missing object reads nothing', async function () {
      expect(await subject.readSigned(await store.signedUrl('missing/never.png', 60))).to.equal(null);
    });

    it('init() creates what a fresh store needs, and may run twice', async function () {
      const fresh = subject.fresh();
      expect(await fresh.reachable()).to.equal(false);
      await fresh.init();
      await fresh.init();
      expect(await fresh.reachable()).to.equal(true);
      await fresh.put('fresh/a.png', Buffer.from('a'), { contentType: 'image/png' });
      expect(await fresh.stat('fresh/a.png')).to.deep.equal({ key: 'fresh/a.png', size: 1, contentType: 'image/png' });
    });

    it('reachable() is true while the backend is up, and false quickly once it is gone', async function () {
      const own = await factory();
      try {
        expect(await own.store.reachable()).to.equal(true);
        await own.takeDown();
        const started = Date.now();
        expect(await own.store.reachable()).to.equal(false);
        expect(Date.now() - started).to.be.lessThan(REACHABLE_BUDGET_MS);
      } finally {
        await own.dispose();
      }
    });
  });
}

// ---- filesystem ----------------------------------------------------------------------------------

const SECRET = 'contract-test-signing-secret';
const PUBLIC_URL = 'http://shotfarm.test:8080/';

/** What the API will do for `/objects/<key>?expires&signature`: verify, then stream the object. */
async function readFilesystemLink(store: ObjectStore, url: string): Promise<{ bytes: Buffer; contentType: string } | null> {
  const parsed = new URL(url);
  if (!parsed.pathname.startsWith('/objects/')) return null;
  const key = parsed.pathname.slice('/objects/'.length).split('/').map(decodeURIComponent).join('/');
  const expires = Number(parsed.searchParams.get('expires'));
  const signature = parsed.searchParams.get('signature') ?? '';
  if (!verifyObjectSignature(SECRET, key, expires, signature, new Date())) return null;
  const info = await store.stat(key);
  if (info === null) return null;
  return { bytes: await readAll(await store.get(key)), contentType: info.contentType };
}

/** The store the processes' registration (core/di/adapters.ts) picks for these settings. */
async function registeredStore(env: Record<string, string>): Promise<ObjectStore> {
  const container = newContainer();
  await registerAdapters(container, loadConfig({ SHOTFARM_PUBLIC_URL: PUBLIC_URL, ...env }), objectStoreAdapters(SECRET), createLogger('silent'));
  return container.resolve(TOKENS.ObjectStore);
}

async function filesystemSubject(): Promise<StoreUnderTest> {
  const dataDir = await mkdtemp(join(tmpdir(), 'shotfarm-fs-store-'));
  // Through the registration the processes use: no S3 settings means a folder in the data dir (initialised).
  const store = await registeredStore({ SHOTFARM_DATA_DIR: dataDir });
  expect(store).to.be.instanceOf(FilesystemObjectStore);
  return {
    store,
    fresh: () => new FilesystemObjectStore({ root: join(dataDir, `fresh-${randomUUID()}`), signingSecret: SECRET, baseUrl: PUBLIC_URL }),
    readSigned: (url) => readFilesystemLink(store, url),
    takeDown: () => rm(join(dataDir, 'objects'), { recursive: true, force: true }),
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}

objectStoreContract('filesystem', filesystemSubject);

describe('FilesystemObjectStore specifics', function () {
  let dataDir: string;
  let store: FilesystemObjectStore;
  before(async function () {
    dataDir = await mkdtemp(join(tmpdir(), 'shotfarm-fs-specific-'));
    store = new FilesystemObjectStore({ root: join(dataDir, 'objects'), signingSecret: SECRET, baseUrl: PUBLIC_URL });
    await store.init();
  });
  after(async function () {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps objects as plain files under <root>/<key>, with hidden sidecars and no leftovers', async function () {
    await store.put(shotKey(5, 1), Buffer.from('png'), { contentType: CONTENT_TYPES.image });
    expect(await readdir(join(dataDir, 'objects', 'screenshots', '5'))).to.have.members(['shot-1.png', '.shot-1.png.meta.json']);
    await store.put(shotKey(5, 1), Readable.from([Buffer.from('short')]), { contentType: CONTENT_TYPES.image, size: 9 }).catch(() => undefined);
    // The failed put left no temp file behind, and the old object untouched.
    expect(await readdir(join(dataDir, 'objects', 'screenshots', '5'))).to.have.members(['shot-1.png', '.shot-1.png.meta.json']);
    expect((await readAll(await store.get(shotKey(5, 1)))).toString()).to.equal('png');
    // Deleting the screenshot removes its sidecars and the folders it emptied.
    expect(await store.delete(screenshotPrefix(5))).to.equal(1);
    expect(await readdir(join(dataDir, 'objects'))).to.deep.equal([]);
  });

  it('signs links as <publicUrl>/objects/<key>?expires=<unix>&signature=<hmac hex>', async function () {
    const before = Math.floor(Date.now() / 1000);
    const url = await store.signedUrl(shotKey(9, 2), 300);
    const match = /^http:\/\/shotfarm\.test:8080\/objects\/screenshots\/9\/shot-2\.png\?expires=(\d+)&signature=([0-9a-f]{64})$/.exec(url);
    expect(match, url).to.not.equal(null);
    const expires = Number(match![1]);
    expect(expires).to.be.within(before + 300, before + 302);
  });

  describe('verifyObjectSignature', function () {
    const key = shotKey(9, 2);
    let expires: number;
    let signature: string;
    const now = new Date();
    before(async function () {
      const url = new URL(await store.signedUrl(key, 300));
      expires = Number(url.searchParams.get('expires'));
      signature = url.searchParams.get('signature')!;
    });

    it('accepts the right signature before expiry, up to the expiry second itself', function () {
      expect(verifyObjectSignature(SECRET, key, expires, signature, now)).to.equal(true);
      expect(verifyObjectSignature(SECRET, key, expires, signature.toUpperCase(), now)).to.equal(true);
      expect(verifyObjectSignature(SECRET, key, expires, signature, new Date(expires * 1000))).to.equal(true);
    });

    it('rejects a tampered key, expiry, signature or secret', function () {
      const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
      expect(verifyObjectSignature(SECRET, shotKey(9, 3), expires, signature, now)).to.equal(false);
      expect(verifyObjectSignature(SECRET, key, expires + 1, signature, now)).to.equal(false);
      expect(verifyObjectSignature(SECRET, key, expires, flipped, now)).to.equal(false);
      expect(verifyObjectSignature('another secret', key, expires, signature, now)).to.equal(false);
    });

    it('rejects an expired link', function () {
      expect(verifyObjectSignature(SECRET, key, expires, signature, new Date(expires * 1000 + 1))).to.equal(false);
    });

    it('rejects malformed input without throwing', function () {
      expect(verifyObjectSignature(SECRET, key, Number.NaN, signature, now)).to.equal(false);
      expect(verifyObjectSignature(SECRET, key, expires + 0.5, signature, now)).to.equal(false);
      expect(verifyObjectSignature(SECRET, key, expires, signature.slice(2), now)).to.equal(false);
      expect(verifyObjectSignature(SECRET, key, expires, `${signature.slice(0, -2)}zz`, now)).to.equal(false);
      expect(verifyObjectSignature(SECRET, key, expires, '', now)).to.equal(false);
      expect(verifyObjectSignature(SECRET, '../etc/passwd', expires, signature, now)).to.equal(false);
    });
  });
});

// ---- S3 (s3rver) ---------------------------------------------------------------------------------

/** Short, so the "gone" test stays quick; 1 s is still ample for a local server's HEAD. */
const REACHABLE_TIMEOUT_MS = 1_000;

async function s3Subject(): Promise<StoreUnderTest> {
  const server = await startS3rver();
  const s3 = { endpoint: server.endpoint, ...S3RVER_CREDENTIALS, bucket: 'shotfarm-contract', region: 'us-east-1' };
  // Through the registration the processes use: S3 settings mean an S3 store.
  const built = await registeredStore({ S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: s3.bucket, S3_REGION: s3.region });
  expect(built).to.be.instanceOf(S3ObjectStore);
  // The store under test gets the short reachable timeout; its shape is the factory's.
  const store = new S3ObjectStore({ ...s3, reachableTimeoutMs: REACHABLE_TIMEOUT_MS });
  await store.init();
  return {
    store,
    fresh: () => new S3ObjectStore({ ...s3, bucket: `fresh-${randomUUID()}`, reachableTimeoutMs: REACHABLE_TIMEOUT_MS }),
    async readSigned(url) {
      // Plain fetch: no credentials, no client library.
      const response = await fetch(url);
      if (!response.ok) {
        await response.body?.cancel();
        return null;
      }
      return { bytes: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
    },
    takeDown: () => server.stop(),
    dispose: () => server.stop(),
  };
}

objectStoreContract('s3 (s3rver)', s3Subject);

describe('S3ObjectStore specifics', function () {
  it('refuses an unsized stream over its buffering bound, storing nothing', async function () {
    const server = await startS3rver();
    try {
      const store = new S3ObjectStore({ endpoint: server.endpoint, ...S3RVER_CREDENTIALS, bucket: 'bounded', region: 'us-east-1', maxUnsizedBytes: 1024 });
      await store.init();
      const ok = await store.put('b/fits', Readable.from([Buffer.alloc(1024, 1)]), { contentType: 'image/png' });
      expect(ok.size).to.equal(1024);
      const error = await store.put('b/over', Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(1000, 2)]), { contentType: 'image/png' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(BodySizeError);
      expect(await store.stat('b/over')).to.equal(null);
    } finally {
      await server.stop();
    }
  });

  it('reachable() gives up after its timeout when the server accepts but never answers', async function () {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const timeoutMs = 300; // short: the test waits for it
      const store = new S3ObjectStore({ endpoint: `http://127.0.0.1:${port}`, ...S3RVER_CREDENTIALS, bucket: 'silent', region: 'us-east-1', reachableTimeoutMs: timeoutMs });
      const started = Date.now();
      expect(await store.reachable()).to.equal(false);
      expect(Date.now() - started).to.be.within(timeoutMs - 10, timeoutMs + 700);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('rejects endpoints it cannot address', function () {
    const base = { ...S3RVER_CREDENTIALS, bucket: 'b', region: 'us-east-1' };
    expect(() => new S3ObjectStore({ ...base, endpoint: 'ftp://minio:9000' })).to.throw(/http/);
    expect(() => new S3ObjectStore({ ...base, endpoint: 'http://minio:9000/some/path' })).to.throw(/path/);
  });
});
