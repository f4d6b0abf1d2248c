/** The few file-system helpers every part of the core shares. */
import { promises as fs } from 'node:fs';

/** True when something (file or folder) exists at `p`. */
export async function pathExists(p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch {
    return false;
  }
}
