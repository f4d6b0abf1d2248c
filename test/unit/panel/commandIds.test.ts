/** The commands the panel invokes by typed id are the ones the extension contributes. */
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { COMMANDS } from '../../../src/extension/commandIds';

describe('panel: commands by typed id', () => {
  it("names only commands the manifest contributes (or VS Code's own)", () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const [name, id] of Object.entries(COMMANDS)) {
      if (id.startsWith('vscode.')) continue;
      assert.ok(contributed.has(id), `${name}: ${id} is contributed`);
    }
  });

  it('registers each of them under its typed id, never under a literal copy of it', () => {
    const src = path.join(__dirname, '..', '..', '..', '..', 'src', 'extension');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => path.join(src, f));
    const ids = new Set<string>(Object.values(COMMANDS));
    const literal = /registerCommand\(\s*'([^']+)'/g;
    const copies = files.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(literal)].filter((m) => ids.has(m[1]!)).map((m) => `${path.relative(src, f)}: ${m[1]}`),
    );
    assert.deepEqual(copies, []);
  });
});
