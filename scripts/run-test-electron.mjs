#!/usr/bin/env node
// The same integration suite as scripts/run-integration.mjs, under @vscode/test-electron: downloads a real VS Code
// (needs internet access to update.code.visualstudio.com, so NOT usable on the offline CI machines) and runs
// out/test/integration/index.js in its extension host. Needs `npm run build && npm run compile-tests` first.
// Env: TEAMFUSION_VSCODE_VERSION (default 'stable'). Prints the closing `N passed, N failed`.
import { mkdirSync, mkdtempSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { prepareTestWorkspace } from './code-server/workspace.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(repo, 'package.json'));
const { runTests } = require('@vscode/test-electron');

const scratch = mkdtempSync(join(tmpdir(), 'teamfusion-te-'));
const workspace = join(scratch, 'workspace');
mkdirSync(workspace);
prepareTestWorkspace(repo, workspace);
const resultsFile = join(scratch, 'results.json');
let code = 1;
try {
  code = await runTests({
    version: process.env.TEAMFUSION_VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: repo,
    extensionTestsPath: join(repo, 'out/test/integration/index.js'),
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      '--user-data-dir',
      join(scratch, 'user-data'),
    ],
    extensionTestsEnv: { TEAMFUSION_TEST_RESULTS: resultsFile, TEAMFUSION_IT_WORKSPACE: workspace, TEAMFUSION_REPO: repo },
  });
} catch (e) {
  console.error(`@vscode/test-electron: ${e instanceof Error ? e.message : String(e)}`);
}
let passed = 0;
let failed = 0;
if (existsSync(resultsFile)) ({ passed, failed } = JSON.parse(readFileSync(resultsFile, 'utf8')));
if (code !== 0 && failed === 0) failed = 1;
rmSync(scratch, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(code === 0 && failed === 0 ? 0 : 1);
