/**
 * Reading a text file the way a designer saved it: must be a file (not a folder), UTF-8 (checked strictly, with the
 * position of the first bad byte), optionally non-empty. Read through the review's one file room (contained, regular
 * file, byte cap). Never throws on bad input; problems come back as one diagnostic.
 */
import { readReviewBytes, ReviewFileError } from './reviewFiles';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { error } from '../diagnostics/diagnostics';

export type TextRead = { ok: true; text: string } | { ok: false; missing: boolean; diagnostic: Diagnostic };

/** Byte offset of the first byte that breaks UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  for (let b = bytes[i]; b !== undefined; b = bytes[i]) {
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** 1-based line and column (in characters) of a byte offset in bytes known to be valid UTF-8 up to that offset. */
function lineColOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: [...(lines.at(-1) ?? '')].length + 1 };
}

export async function readTextFile(
  root: string,
  relFile: string,
  what: { label: string; allowEmpty?: boolean; missingMessage?: string; maxBytes: number },
): Promise<TextRead> {
  let bytes: Uint8Array;
  try {
    bytes = await readReviewBytes(root, relFile, what.maxBytes);
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    if (err.reason === 'missing') {
      return { ok: false, missing: true, diagnostic: error(relFile, what.missingMessage ?? `${relFile} is missing.`) };
    }
    if (err.reason === 'not-regular' && /a folder/.test(err.message)) {
      return {
        ok: false,
        missing: false,
        diagnostic: error(relFile, `${relFile} is a folder, but it must be a file (${what.label}). Remove or rename the folder.`),
      };
    }
    return { ok: false, missing: false, diagnostic: error(relFile, err.message) };
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
    const { line, column } = lineColOfByte(bytes, bad);
    const how = utf16
      ? 'It looks like UTF-16; save it again as UTF-8.'
      : `The byte 0x${(bytes[bad] ?? 0).toString(16).toUpperCase().padStart(2, '0')} is not valid UTF-8; save the file again with UTF-8 encoding.`;
    return { ok: false, missing: false, diagnostic: error(relFile, `${relFile} is not UTF-8 text. ${how}`, line, column) };
  }
  // Strict decode as well (belt and braces), dropping a UTF-8 byte-order mark.
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, missing: false, diagnostic: error(relFile, `${relFile} is not UTF-8 text; save it again with UTF-8 encoding.`) };
  }
  if (!what.allowEmpty && text.trim() === '') {
    return { ok: false, missing: false, diagnostic: error(relFile, `${relFile} is empty. Write the ${what.label} in it.`) };
  }
  return { ok: true, text };
}
