/** The harness itself: the suite runs in a real extension host, on the prepared workspace, with this repo loaded. */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

describe('integration harness', () => {
  it('runs inside VS Code with the prepared workspace open', () => {
    assert.ok(vscode.version.length > 0, 'vscode.version is set');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1, 'one workspace folder');
    const ws = folders[0]?.uri.fsPath;
    assert.ok(ws, 'the workspace folder has a path');
    const expected = process.env.TEAMFUSION_IT_WORKSPACE;
    if (expected) assert.equal(ws, expected);
    assert.ok(existsSync(join(ws, '.teamfusion-it.json')), 'the runner described the workspace');
  });

  it('has the TeamFusion extension under development', () => {
    const ext = vscode.extensions.getExtension('teamfusion.teamfusion');
    assert.ok(ext, 'extension teamfusion.teamfusion is loaded');
    assert.equal(ext.packageJSON.name, 'teamfusion');
  });
});
