/**
 * Size and format of a PNG, JPEG or WebP from its first bytes, without an image library: what validation uses when
 * sharp cannot load on this platform (see sharp.ts). It checks the header only, not every pixel.
 */
export interface HeaderFacts {
  format: 'png' | 'jpeg' | 'webp';
  width: number;
  height: number;
}

export function readImageHeader(b: Buffer): HeaderFacts | undefined {
  // PNG: signature, then the IHDR chunk with width and height (big-endian).
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a && b.toString('latin1', 12, 16) === 'IHDR') {
    return sized('png', b.readUInt32BE(16), b.readUInt32BE(20));
  }
  // JPEG: SOI, then segments until a start-of-frame marker (SOF0–SOF15 except DHT, JPG and DAC).
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1]!;
      if (marker === 0xff) {
        i++;
        continue;
      }
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return sized('jpeg', b.readUInt16BE(i + 7), b.readUInt16BE(i + 5));
      }
      if (len < 2) return undefined;
      i += 2 + len;
    }
    return undefined;
  }
  // WebP: RIFF….WEBP with a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk.
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = b.toString('latin1', 12, 16);
    if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
      return sized('webp', b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
    }
    if (chunk === 'VP8L' && b[20] === 0x2f) {
      const bits = b.readUInt32LE(21);
      return sized('webp', (bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
    }
    if (chunk === 'VP8X') {
      return sized('webp', 1 + b.readUIntLE(24, 3), 1 + b.readUIntLE(27, 3));
    }
  }
  return undefined;
}

function sized(format: HeaderFacts['format'], width: number, height: number): HeaderFacts | undefined {
  return width > 0 && height > 0 ? { format, width, height } : undefined;
}
