/** The project's own TypeScript sources, for the tests that scan them (one rule, one place: a scan reads what this lists). */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** The repository's src/ folder (from out/test/…, where the compiled tests run). */
export const SRC = path.resolve(__dirname, '../../../src');

/** Every .ts/.tsx file under `dir`, recursively, as absolute paths. */
export async function sourceFiles(dir: string = SRC): Promise<string[]> {
  const out: string[] = [];
  for (const d of await fs.readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...(await sourceFiles(abs)));
    else if (/\.tsx?$/.test(d.name)) out.push(abs);
  }
  return out;
}
