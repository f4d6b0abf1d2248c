/**
 * A small multipart/form-data parser (RFC 7578), enough for what HTTP clients send to /images/edits.
 */
import type { UploadedFile } from './types';

export interface MultipartResult {
  /** Text fields in order; a name may repeat. */
  fields: Array<{ name: string; value: string }>;
  files: UploadedFile[];
}

export class MultipartError extends Error {}

/** Reads the boundary out of a content-type header, or undefined when it is not multipart/form-data. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

function headerParam(header: string, name: string): string | undefined {
  // name="value" (with \" escapes) or name=token; filename* (RFC 5987) is decoded when present.
  const star = new RegExp(`;\\s*${name}\\*=([^']*)'[^']*'([^;]+)`, 'i').exec(header);
  const starred = star?.[2]?.trim();
  if (starred !== undefined) {
    try {
      return decodeURIComponent(starred);
    } catch {
      return starred;
    }
  }
  const quoted = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header);
  // Browsers and undici escape '"', CR and LF in names as %22, %0D, %0A (HTML form-data encoding).
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1').replace(/%22/g, '"').replace(/%0D/g, '\r').replace(/%0A/g, '\n');
  const bare = new RegExp(`;\\s*${name}=([^;\\s]+)`, 'i').exec(header);
  return bare?.[1];
}

/** Splits a multipart body. Throws MultipartError when the body is malformed. */
export function parseMultipart(body: Buffer, boundary: string): MultipartResult {
  const delimiter = Buffer.from(`--${boundary}`);
  const result: MultipartResult = { fields: [], files: [] };
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new MultipartError('The multipart body does not contain its boundary.');
  for (;;) {
    pos += delimiter.length;
    // "--" right after a delimiter closes the body.
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return result;
    // Skip transport padding and the CRLF after the delimiter.
    while (body[pos] === 0x20 || body[pos] === 0x09) pos++;
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) pos += 2;
    else throw new MultipartError('A multipart delimiter is not followed by a line break.');
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) throw new MultipartError('A multipart part has no end of headers.');
    const headerLines = body.subarray(pos, headerEnd).toString('utf8').split('\r\n');
    const headers = new Map<string, string>();
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw new MultipartError('A multipart part is not closed by the boundary.');
    const content = body.subarray(headerEnd + 4, next);
    const disposition = headers.get('content-disposition') ?? '';
    const name = headerParam(disposition, 'name');
    if (!/^form-data\b/i.test(disposition) || name === undefined) {
      throw new MultipartError('A multipart part has no form-data content-disposition with a name.');
    }
    const filename = headerParam(disposition, 'filename');
    if (filename !== undefined) {
      result.files.push({
        field: name,
        filename,
        contentType: headers.get('content-type') ?? 'application/octet-stream',
        data: Buffer.from(content),
      });
    } else {
      result.fields.push({ name, value: content.toString('utf8') });
    }
    pos = next + 2;
  }
}
