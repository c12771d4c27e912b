import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { TestApp } from '../support/app';
import { ApiClient, useSession } from '../support/session';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e80000000049454e44ae426082', 'hex');
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64), Buffer.from('ffd9', 'hex')]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from('01000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(64)]);
const padded = (bytes: Buffer, size: number) => Buffer.concat([bytes, Buffer.alloc(size - bytes.length)]);

// White-box: the storage itself (files on disk, objects in S3rver), to show a refused upload stored
// nothing; no endpoint lists uploads.
function uploadsSuite(name: string, setup: () => Promise<{ env: Record<string, string>; stop: () => Promise<void>; stored: (app: TestApp) => Promise<number> }>) {
  describe(name, () => {
    let storage: Awaited<ReturnType<typeof setup>>;
    beforeAll(async () => {
      storage = await setup();
    });
    const s = useSession(() => ({ PUBLIC_URL: 'https://mail.example.test', ...storage.env }), { projectName: 'Uploads' });
    // After the session's close (hooks run in declaration order): the app stops before its storage.
    afterAll(() => storage?.stop());
    const stored = () => storage.stored(s.app);
    const upload = (bytes: Buffer, filename = 'image.png', contentType = 'image/png', client: ApiClient = s.api) =>
      client.post('/uploads/image').attach('file', bytes, { filename, contentType });
    const fetchUrl = (url: string) => s.anonymous.get(new URL(url).pathname);

    it('stores PNG, JPEG, GIF and WebP by content and serves them publicly with their type', async () => {
      for (const [bytes, type] of [[PNG, 'image/png'], [JPEG, 'image/jpeg'], [GIF, 'image/gif'], [WEBP, 'image/webp']] as const) {
        // The client's name and Content-Type do not matter; the bytes do.
        const res = await upload(bytes, 'whatever.bin', 'application/octet-stream').expect(201);
        expect(res.body).toEqual({ url: expect.stringMatching(/^https:\/\/mail\.example\.test\/uploads\/img_[0-9a-f]{32}\.(png|jpg|gif|webp)$/) });
        const served = await fetchUrl(res.body.url).buffer(true).parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        }).expect(200);
        expect(served.headers['content-type']).toBe(type);
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0);
      }
      expect(await stored()).toBe(4);
    });

    it('refuses SVG, a renamed executable and text with 415; over 5 MB with 413; nothing stored', async () => {
      const before = await stored();
      for (const bytes of [SVG, EXE, Buffer.from('just text')]) {
        const res = await upload(bytes, 'image.png', 'image/png').expect(415);
        expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
      const big = await upload(padded(PNG, 6 * 1024 * 1024)).expect(413);
      expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await stored()).toBe(before);
      await upload(padded(PNG, 5 * 1024 * 1024)).expect(201);
      expect(await stored()).toBe(before + 1);
    });

    // The template and campaign editors upload with the dashboard's session (docs/dashboard.md).
    it('takes the dashboard session with X-Project-Id and the CSRF header, and refuses it without them', async () => {
      const cookie = { Cookie: s.project.cookie, 'X-Project-Id': s.project.id };
      const res = await s.anonymous.post('/uploads/image').set({ ...cookie, 'X-Requested-With': 'XMLHttpRequest' }).attach('file', PNG, 'a.png').expect(201);
      expect(res.body.url).toMatch(/^https:\/\/mail\.example\.test\/uploads\/img_[0-9a-f]{32}\.png$/);
      const before = await stored();
      const csrf = await s.anonymous.post('/uploads/image').set(cookie).attach('file', PNG, 'a.png').expect(403);
      expect(csrf.body.error.code).toBe('FORBIDDEN');
      const stranger = await s.newUser();
      await s.anonymous.post('/uploads/image').set({ Cookie: stranger.cookie, 'X-Project-Id': s.project.id, 'X-Requested-With': 'XMLHttpRequest' }).attach('file', PNG, 'a.png').expect(404);
      expect(await stored()).toBe(before);
    });

    it('needs the file part and the secret key; unknown images are 404', async () => {
      await s.api.post('/uploads/image').attach('image', PNG, 'a.png').expect(400);
      await s.api.post('/uploads/image').field('x', 'y').expect(400);
      await upload(PNG, 'a.png', 'image/png', s.publicApi).expect(401);
      await s.anonymous.post('/uploads/image').attach('file', PNG, 'a.png').expect(401);
      await s.anonymous.get(`/uploads/img_${'0'.repeat(32)}.png`).expect(404);
      await s.anonymous.get('/uploads/..%2Fsecret').expect(404);
      await s.anonymous.get('/uploads/image').expect(404);
    });
  });
}

uploadsSuite('uploads on local disk', async () => ({
  env: {},
  stop: async () => {},
  stored: async (app) => (await readdir(join(app.dataDir, 'uploads')).catch(() => [])).filter((f) => !f.startsWith('.')).length,
}));

uploadsSuite('uploads on S3-compatible storage', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'images', configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  return {
    env: {
      S3_BUCKET: 'images',
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
    stored: async () => (await readdir(join(dir, 'images', 'images')).catch(() => [])).filter((f) => f.endsWith('._S3rver_object')).length,
  };
});
