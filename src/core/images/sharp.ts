/**
 * sharp, loaded on first use. Each platform's VSIX carries that platform's sharp binaries; where they cannot load
 * (another platform, a damaged install), validation and analysis still work (image headers are read without sharp,
 * see imageHeader.ts) and a run stops before its first model call with one sentence saying why it cannot prepare images.
 */
import type SharpDefault from 'sharp';
import { errorMessage } from '../kernel/errors';

export type Sharp = typeof SharpDefault;
type Loaded = { ok: true; sharp: Sharp } | { ok: false; reason: string };

let loaded: Loaded | undefined;

/** Loads sharp through `load` (a test passes one that fails, as on an unsupported platform). */
export function loadSharpWith(load: () => unknown): Loaded {
  try {
    const m = load() as Sharp & { default?: Sharp };
    const sharp = typeof m.default === 'function' ? m.default : m;
    if (typeof sharp !== 'function') return { ok: false, reason: 'sharp loaded but is not usable' };
    return { ok: true, sharp };
  } catch (e) {
    const first =
      errorMessage(e)
        .split('\n')
        .find((l) => l.trim()) ?? 'unknown error';
    return { ok: false, reason: first.trim().slice(0, 200) };
  }
}

function state(): Loaded {
  return (loaded ??= loadSharpWith(() => require('sharp')));
}

/** sharp, or undefined when it cannot load here. */
export function optionalSharp(): Sharp | undefined {
  const s = state();
  return s.ok ? s.sharp : undefined;
}

/** One sentence for a user: why images cannot be prepared on this machine; undefined when sharp works. */
export function imagesUnavailableReason(s: Loaded = state()): string | undefined {
  if (s.ok) return undefined;
  return `TeamFusion cannot prepare images on this platform (${process.platform}-${process.arch}) because its image library, sharp, does not load here (${s.reason.replace(/[.\s]+$/, '')}); install the TeamFusion VSIX built for this platform.`;
}

/** The image library is missing: `message` is the sentence of imagesUnavailableReason. */
export class ImagesUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImagesUnavailableError';
  }
}

/** sharp, or an ImagesUnavailableError with the one sentence. */
export function requireSharp(): Sharp {
  const s = state();
  if (s.ok) return s.sharp;
  throw new ImagesUnavailableError(imagesUnavailableReason(s)!);
}
