/**
 * Every write, rename and delete goes through the file room (src/core/files): a source scan fails when code elsewhere
 * in src/ calls a writing file-system function directly, so a new direct write cannot slip in unnoticed.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { SRC, sourceFiles } from '../../support/sourceFiles';

const ROOM = path.join(SRC, 'core', 'files');
const WRITING = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'rename',
  'renameSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'unlink',
  'unlinkSync',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'createWriteStream',
  'truncate',
  'truncateSync',
  'symlink',
  'symlinkSync',
  'link',
  'linkSync',
  'utimes',
  'lutimes',
  'chmod',
];
/** `fs.writeFile(`, `handle.truncate(`, `promises.rm(` …, and such names imported from node:fs. */
const CALL = new RegExp(`\\b(?:fs|fsp|promises|handle|fh)\\.(${WRITING.join('|')})\\s*\\(`);
const IMPORT = new RegExp(`import\\s*\\{[^}]*\\b(${WRITING.join('|')})\\b[^}]*\\}\\s*from\\s*'(?:node:)?fs(?:/promises)?'`);
const OPEN_FOR_WRITE = /\bopen(?:Sync)?\s*\([^)]*(?:'[wa]x?\+?'|O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC)/;

describe('file room: no direct write outside src/core/files', () => {
  it('no source file outside the room writes, renames, deletes or creates through node:fs itself', async () => {
    const found: string[] = [];
    for (const file of await sourceFiles()) {
      if (file.startsWith(ROOM + path.sep)) continue;
      const text = await fs.readFile(file, 'utf8');
      text.split('\n').forEach((line, i) => {
        if (CALL.test(line) || IMPORT.test(line) || OPEN_FOR_WRITE.test(line))
          found.push(`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(found, [], `write through the file room (src/core/files/reviewFiles.ts) instead:\n${found.join('\n')}`);
  });
});
