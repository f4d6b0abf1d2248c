/** The commands the panel invokes by typed id are the ones the extension contributes. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { COMMANDS } from '../../../src/extension/commandIds';

describe('panel: commands by typed id', () => {
  it('names only commands the manifest contributes (or VS Code\'s own)', () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
    const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const [name, id] of Object.entries(COMMANDS)) {
      if (id.startsWith('vscode.')) continue;
      assert.ok(contributed.has(id), `${name}: ${id} is contributed`);
    }
  });
});
