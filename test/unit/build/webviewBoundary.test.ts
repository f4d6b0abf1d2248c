/**
 * What the panel's webview may import, beside the core's rooms (coreRooms.test.ts), as src/core/README.md says:
 *  - a webview file imports only webview/ and src/protocol/ (the core's pure helpers reach it through
 *    src/protocol/shared.ts), and of packages only the browser's (BROWSER_PACKAGES);
 *  - everything its value imports reach, through src/protocol and into the core, is browser-safe: no Node built-in
 *    (`node:` or not), no `vscode`, no package but BROWSER_PACKAGES (no schema library: zod stays out of the bundle), and
 *    not the persisted run.json schema (src/core/record/record.ts) nor any reading or writing of it.
 * Type-only imports (`import type`, or every name marked `type`) are erased from the bundle, so the second rule skips them.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const WEBVIEW = path.join(REPO, 'webview');
const PROTOCOL = path.join(REPO, 'src', 'protocol');
/** The persisted record's schema and its files: the webview never reaches them, even through the protocol. */
const RECORD_INTERNALS = [
  'src/core/record/record.ts',
  'src/core/record/store.ts',
  'src/core/record/journal.ts',
  'src/core/record/paths.ts',
];
/** Packages that run in a browser, which the webview may bundle (a prefix matches its subpaths). */
const BROWSER_PACKAGES = ['lit', 'markdown-it', '@vscode-elements/elements'];

interface Import {
  spec: string;
  line: number;
  /** Erased from the bundle (`import type`, every name `type`, `export type`). */
  typeOnly: boolean;
}

const parsed = new Map<string, Import[]>();
function importsOf(file: string): Import[] {
  const known = parsed.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Import[] = [];
  const add = (spec: ts.Expression | undefined, typeOnly: boolean): void => {
    if (spec && ts.isStringLiteral(spec))
      out.push({ spec: spec.text, line: source.getLineAndCharacterOfPosition(spec.getStart(source)).line + 1, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      add(node.moduleSpecifier, !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly))));
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  parsed.set(file, out);
  return out;
}

function resolveRelative(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  const found = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
  return found ?? base;
}

const isNodeBuiltin = (spec: string): boolean => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);
const isBrowserPackage = (spec: string): boolean => BROWSER_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`));
const inside = (dir: string, file: string): boolean => file.startsWith(dir + path.sep);
const shown = (file: string): string => path.relative(REPO, file).split(path.sep).join('/');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const f = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(f) : f.endsWith('.ts') ? [f] : [];
  });
}

/** Every way the webview files `files` (under `root`) break the two rules, one line each. */
function webviewBoundaryProblems(root: string, files: string[]): string[] {
  const problems: string[] = [];
  const at = (file: string, line: number) => `${shown(file)}:${line}`;
  // 1. What a webview file imports directly.
  for (const f of files) {
    for (const { spec, line } of importsOf(f)) {
      if (spec.startsWith('.')) {
        const target = resolveRelative(f, spec);
        if (!inside(root, target) && !inside(PROTOCOL, target))
          problems.push(
            `${at(f, line)} imports ${shown(target)}: the webview imports only webview/ and src/protocol/ (the core through src/protocol/shared.ts)`,
          );
      } else if (spec === 'vscode' || isNodeBuiltin(spec)) problems.push(`${at(f, line)} imports ${spec}, which a browser does not have`);
      else if (!isBrowserPackage(spec))
        problems.push(`${at(f, line)} imports the package ${spec}, not one of the browser's (${BROWSER_PACKAGES.join(', ')})`);
    }
  }
  // 2. What its value imports reach.
  const reached = new Map<string, string>();
  const stack = files.map((f) => [f, shown(f)] as const);
  while (stack.length) {
    const [f, via] = stack.pop()!;
    if (reached.has(f)) continue;
    reached.set(f, via);
    if (RECORD_INTERNALS.includes(shown(f))) problems.push(`the webview reaches ${shown(f)} (the persisted run record) through ${via}`);
    for (const { spec, line, typeOnly } of importsOf(f)) {
      if (typeOnly) continue;
      if (spec.startsWith('.')) stack.push([resolveRelative(f, spec), `${via} → ${at(f, line)}`]);
      else if (!isBrowserPackage(spec))
        problems.push(`the webview bundles ${spec} (${at(f, line)}, reached through ${via}): not browser-safe`);
    }
  }
  return problems;
}

describe('what the webview may import (src/core/README.md)', () => {
  it('imports only webview/ and src/protocol/, and reaches nothing a browser lacks, nor the persisted run record', () => {
    const files = tsFiles(WEBVIEW);
    assert.ok(files.length > 10, `the webview's files are found (${files.length})`);
    for (const f of RECORD_INTERNALS)
      assert.ok(existsSync(path.join(REPO, f)), `${f} exists (a rule about a moved file would hold nothing)`);
    assert.deepEqual(webviewBoundaryProblems(WEBVIEW, files), []);
  });

  it('names a planted import of a Node-only module, of the core, or of a protocol file that brings the record schema', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tf-webview-'));
    try {
      const rel = (target: string) => path.relative(dir, path.join(REPO, target)).split(path.sep).join('/');
      const planted = path.join(dir, 'planted.ts');
      writeFileSync(
        planted,
        [
          `import { readFileSync } from 'node:fs';`,
          `import * as zod from 'zod';`,
          `import { readRunRecord } from '${rel('src/core/record/store')}';`,
          `import { parseWebviewMessage } from '${rel('src/protocol/panel')}';`,
          `import type { PanelState } from '${rel('src/protocol/panel')}';`,
          `import { errorMessage } from '${rel('src/protocol/shared')}';`,
        ].join('\n'),
      );
      const problems = webviewBoundaryProblems(dir, [planted]).join('\n');
      assert.match(problems, /planted\.ts:1 imports node:fs, which a browser does not have/);
      assert.match(problems, /planted\.ts:2 imports the package zod/);
      assert.match(problems, /planted\.ts:3 imports src\/core\/record\/store\.ts: the webview imports only webview\/ and src\/protocol\//);
      assert.match(problems, /the webview reaches src\/core\/record\/record\.ts \(the persisted run record\)/);
      assert.match(problems, /the webview bundles node:fs/);
      assert.doesNotMatch(problems, /planted\.ts:[56] imports/, 'a protocol import (value or type) is allowed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
