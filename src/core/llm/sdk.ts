/**
 * The `openai` SDK, loaded on first use: a window that only looks at reviews never loads it, so activating the
 * extension stays small and quick. The bundles keep the SDK in a file of its own, dist/openai.js (see esbuild.mjs).
 * Import only types from 'openai' elsewhere; take values (the client class, toFile) from here. Its error classes are read
 * in sdkErrors.ts alone, which turns them into ModelRequestError kinds.
 */
import type * as Sdk from 'openai';

let loaded: typeof Sdk | undefined;

export function openaiSdk(): typeof Sdk {
  return (loaded ??= require('openai') as typeof Sdk);
}
