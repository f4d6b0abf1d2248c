import * as assert from 'node:assert/strict';
import { multipartBoundary, MultipartError, parseMultipart } from '../../support/openaiMock/multipart';

async function encode(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? '' };
}

describe('mock OpenAI: multipart parser', () => {
  it('reads text fields, repeated names and binary files as a platform FormData encodes them', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]);
    const form = new FormData();
    form.append('model', 'gpt-image-1');
    form.append('prompt', 'Line one\r\nline two — ünïcode');
    form.append('image[]', new Blob([bytes], { type: 'image/png' }), 'a "quoted" name.png');
    form.append('image[]', new Blob([Buffer.from('second')], { type: 'image/webp' }), 'b.webp');
    const { body, contentType } = await encode(form);
    const boundary = multipartBoundary(contentType);
    assert.ok(boundary);
    const parsed = parseMultipart(body, boundary);
    assert.deepEqual(parsed.fields, [
      { name: 'model', value: 'gpt-image-1' },
      { name: 'prompt', value: 'Line one\r\nline two — ünïcode' },
    ]);
    assert.deepEqual(
      parsed.files.map((f) => [f.field, f.filename, f.contentType]),
      [
        ['image[]', 'a "quoted" name.png', 'image/png'],
        ['image[]', 'b.webp', 'image/webp'],
      ],
    );
    assert.ok(parsed.files[0]?.data.equals(bytes));
    assert.equal(parsed.files[1]?.data.toString(), 'second');
  });

  it('reads quoted boundaries and refuses malformed bodies', () => {
    assert.equal(multipartBoundary('multipart/form-data; boundary="a b"'), 'a b');
    assert.equal(multipartBoundary('application/json'), undefined);
    assert.throws(() => parseMultipart(Buffer.from('no boundary here'), 'xyz'), MultipartError);
    assert.throws(
      () => parseMultipart(Buffer.from('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated'), 'xyz'),
      MultipartError,
    );
    const ok = parseMultipart(Buffer.from('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--\r\n'), 'xyz');
    assert.deepEqual(ok.fields, [{ name: 'a', value: '1' }]);
  });
});
