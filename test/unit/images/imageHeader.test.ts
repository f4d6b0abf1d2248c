import * as assert from 'node:assert/strict';
import sharp from 'sharp';
import { readImageHeader } from '../../../src/core/images/imageHeader';

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="321" height="123"><rect width="321" height="123" fill="#c84"/></svg>',
);

describe('image headers without sharp (validation on a platform where sharp cannot load)', () => {
  const cases: [string, () => Promise<Buffer>][] = [
    ['png', () => sharp(SVG).png().toBuffer()],
    ['jpeg (progressive)', () => sharp(SVG).jpeg({ progressive: true }).toBuffer()],
    ['jpeg (with EXIF first)', () => sharp(SVG).withMetadata({ orientation: 1 }).jpeg().toBuffer()],
    ['webp lossy', () => sharp(SVG).webp({ lossless: false }).toBuffer()],
    ['webp lossless', () => sharp(SVG).webp({ lossless: true }).toBuffer()],
    ['webp with alpha (extended)', () => sharp(SVG).ensureAlpha(0.5).webp({ lossless: false, alphaQuality: 50 }).toBuffer()],
  ];
  for (const [name, make] of cases) {
    it(`reads the size and format of ${name} like sharp does`, async () => {
      const bytes = await make();
      const meta = await sharp(bytes).metadata();
      assert.deepEqual(readImageHeader(bytes), { format: meta.format, width: meta.width, height: meta.height });
    });
  }

  it('says nothing about bytes that are not one of the three formats', async () => {
    assert.equal(readImageHeader(Buffer.from('GIF89a\x01\x00\x01\x00')), undefined);
    assert.equal(readImageHeader(Buffer.from('hello, not an image at all, just text')), undefined);
    assert.equal(readImageHeader(Buffer.alloc(0)), undefined);
    const png = await sharp(SVG).png().toBuffer();
    assert.equal(readImageHeader(png.subarray(0, 20)), undefined, 'a cut-off header');
  });
});
