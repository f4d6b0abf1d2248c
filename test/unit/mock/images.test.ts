import * as assert from 'node:assert/strict';
import sharp from 'sharp';
import { toFile } from 'openai';
import { MockOpenAI } from '../../support/openaiMock';
import { client, PNG_SIGNATURE, subsetValidator } from './helpers';

async function solid(colour: { r: number; g: number; b: number }, format: 'png' | 'webp'): Promise<Buffer> {
  const img = sharp({ create: { width: 64, height: 48, channels: 3, background: colour } });
  return format === 'png' ? img.png().toBuffer() : img.webp({ lossless: true }).toBuffer();
}

describe('mock OpenAI: image edits', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start();
  });
  afterEach(() => mock.reset());
  after(() => mock.close());

  it('parses a two-image multipart edit from the SDK and answers a real PNG blended from the uploads', async () => {
    const red = await solid({ r: 200, g: 0, b: 0 }, 'png');
    const blue = await solid({ r: 0, g: 0, b: 200 }, 'webp');
    const result = await client(mock.baseURL).images.edit({
      model: 'gpt-image-1',
      prompt: 'Merge the label of the first with the colours of the second.',
      image: [await toFile(red, 'option-1.png', { type: 'image/png' }), await toFile(blue, 'option-2.webp', { type: 'image/webp' })],
    });
    assert.deepEqual(subsetValidator('ImagesResponse')(result), []);
    const png = Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64');
    assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG came back');
    const meta = await sharp(png).metadata();
    assert.deepEqual([meta.width, meta.height, meta.format], [512, 512, 'png']);
    // Away from the pattern stripes, the pixel is the average of red and blue.
    const { data } = await sharp(png).extract({ left: 30, top: 10, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([...data.subarray(0, 3)], [100, 0, 100]);
    assert.ok((result.usage?.output_tokens ?? 0) > 0);

    assert.equal(mock.requests.length, 1);
    const req = mock.requests[0];
    assert.ok(req);
    assert.equal(req.path, '/v1/images/edits');
    assert.match(req.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    assert.deepEqual(req.body, { model: 'gpt-image-1', prompt: 'Merge the label of the first with the colours of the second.' });
    assert.deepEqual(
      req.files.map((f) => [f.field, f.filename, f.contentType]),
      [
        ['image[]', 'option-1.png', 'image/png'],
        ['image[]', 'option-2.webp', 'image/webp'],
      ],
    );
    assert.ok(req.files[0]?.data.equals(red) && req.files[1]?.data.equals(blue), 'file bytes arrive unchanged');
    assert.deepEqual(mock.specErrors(), []);
  });

  it('answers a scripted PNG, and a pattern PNG when the uploads are not images', async () => {
    const scripted = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    mock.enqueue('edit', { kind: 'image', png: scripted });
    const c = client(mock.baseURL);
    const file = async (): Promise<Awaited<ReturnType<typeof toFile>>> =>
      toFile(Buffer.from('not an image'), 'x.png', { type: 'image/png' });
    const first = await c.images.edit({ model: 'gpt-image-1', prompt: 'p', image: await file() });
    assert.ok(Buffer.from(first.data?.[0]?.b64_json ?? '', 'base64').equals(scripted));
    const second = await c.images.edit({ model: 'gpt-image-1', prompt: 'p', image: await file() });
    const meta = await sharp(Buffer.from(second.data?.[0]?.b64_json ?? '', 'base64')).metadata();
    assert.deepEqual([meta.width, meta.height], [512, 512]);
    assert.deepEqual(
      mock.requests[0]?.files.map((f) => f.field),
      ['image'],
      'a single image goes as "image"',
    );
  });

  it('flags an edit without a prompt as a spec violation', async () => {
    await assert.rejects(
      client(mock.baseURL).images.edit({ model: 'gpt-image-1', image: await toFile(Buffer.from('x'), 'a.png') } as unknown as Parameters<
        ReturnType<typeof client>['images']['edit']
      >[0]),
      (err: Error & { status?: number }) => err.status === 400 && /prompt/.test(err.message),
    );
    assert.equal(mock.specErrors().length, 1);
    assert.match(mock.specErrors()[0] ?? '', /^POST \/v1\/images\/edits: .*prompt/);
  });
});
