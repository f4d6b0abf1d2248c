/**
 * The zod members that sources outside the core name (`z.object`, `z\n  .union`, …): the build's shared core bundle
 * (esbuild.mjs) gives them those members of its one copy of zod, and only those, so it keeps only what is used of it. A
 * test (test/unit/build/zodFacade.test.ts) reads the same sources with TypeScript and checks that this finds every one.
 */
import { readFileSync } from 'node:fs';

/** `z.<member>` with any spacing around the dot: the names, sorted, once each (types such as `infer` included). */
export function zodMembersNamed(files) {
  const names = new Set();
  for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/\bz\s*\.\s*([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
  return [...names].sort();
}
