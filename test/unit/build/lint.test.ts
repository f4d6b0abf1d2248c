/**
 * The lint stage catches what it is there for: ESLint with the project's own config (eslint.config.mjs) fails a planted
 * file that breaks a rule needing type information (a floating promise) and a plain one (an unused variable), and passes
 * the same file once fixed. The planted files sit in a temporary folder with a tsconfig of their own, so the check
 * builds no program of the whole tree (`npm run lint` does that).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');

describe('lint (eslint.config.mjs)', function () {
  this.timeout(120_000);
  let dir = '';
  let lint: (file: string, text: string) => Promise<string[]>;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tf-lint-'));
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'node16', noEmit: true }, include: ['*.ts'] }),
    );
    const { ESLint } = await import('eslint');
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: path.join(REPO, 'eslint.config.mjs') });
    lint = async (file, text) => {
      writeFileSync(path.join(dir, file), text);
      const [result] = await eslint.lintFiles([path.join(dir, file)]);
      return (result?.messages ?? []).map((m) => `${m.line}: ${m.ruleId ?? 'fatal'}: ${m.message}`);
    };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fails a planted TypeScript file on a type-aware rule and a plain one, and passes it fixed', async () => {
    const later = 'async function later(): Promise<number> {\n  return await Promise.resolve(1);\n}\n';
    const planted = await lint('planted.ts', `${later}export function start(): void {\n  const unused = 1;\n  later();\n}\n`);
    assert.ok(
      planted.some((m) => m.startsWith('6: @typescript-eslint/no-floating-promises')),
      planted.join('\n'),
    );
    assert.ok(
      planted.some((m) => m.startsWith('5: @typescript-eslint/no-unused-vars')),
      planted.join('\n'),
    );
    assert.deepEqual(await lint('fixed.ts', `${later}export function start(): void {\n  void later();\n}\n`), []);
  });

  it('fails a planted script (.mjs) on an undefined name', async () => {
    const planted = await lint('planted.mjs', 'export const x = undefinedThing + 1;\n');
    assert.ok(
      planted.some((m) => m.startsWith('1: no-undef')),
      planted.join('\n'),
    );
  });
});
