/**
 * One formatter for the tree: Prettier with the project's .prettierrc, checked by `npm run lint` over src/, webview/,
 * test/, scripts/ and bench/. A planted file formatted otherwise fails the check and passes once formatted.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');

describe('format (.prettierrc)', () => {
  it('fails a planted file formatted otherwise and passes it formatted', async () => {
    const prettier = await import('prettier');
    const options = { ...(await prettier.resolveConfig(path.join(REPO, 'src', 'planted.ts'))), filepath: 'planted.ts' };
    const planted = 'export const  x = {a:1, b : "two"}\n';
    assert.equal(await prettier.check(planted, options), false);
    const formatted = await prettier.format(planted, options);
    assert.equal(formatted, "export const x = { a: 1, b: 'two' };\n");
    assert.equal(await prettier.check(formatted, options), true);
  });

  it('is part of the lint stage, over every folder of code', () => {
    const scripts = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // `npm run lint` is scripts/lint.mjs, which runs ESLint and `npm run format:check` side by side and fails when either does.
    assert.equal(scripts.lint, 'node scripts/lint.mjs');
    assert.match(readFileSync(path.join(REPO, 'scripts', 'lint.mjs'), 'utf8'), /run\('npm', \['run', '--silent', 'format:check'\]\)/);
    const check = scripts['format:check'] ?? '';
    assert.match(
      check,
      /\{src,webview,test,scripts,bench\}\/\*\*\/\*\.\{ts,mjs,js\}/,
      'format:check covers the code of src/, webview/, test/, scripts/ and bench/',
    );
  });
});
