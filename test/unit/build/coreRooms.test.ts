/**
 * The rooms of src/core (its folders) and the order they stand in, bottom first, as src/core/README.md's map declares it:
 * a room imports only rooms below it, and no file of the core takes part in an import cycle. Type-only imports count
 * (`import type`, `export … from`), since a type arrow ties two rooms as much as a value arrow does.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const CORE = path.join(REPO, 'src', 'core');

/** The rooms in the README's map, bottom first: the rows of its table whose second cell is a room name in backticks. */
function declaredOrder(): string[] {
  const readme = readFileSync(path.join(CORE, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\|\s*\d+\s*\|\s*`([a-z]+)`\s*\|/gm)].map((m) => m[1]!);
}

function coreFiles(dir = CORE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const f = path.join(dir, e.name);
    return e.isDirectory() ? coreFiles(f) : f.endsWith('.ts') ? [f] : [];
  });
}

const rel = (f: string): string => path.relative(CORE, f).split(path.sep).join('/');
const roomOf = (f: string): string => rel(f).split('/')[0]!;

/** The core files a file imports or re-exports from (relative specifiers only; packages and node: are not rooms). */
const parsed = new Map<string, { target: string; line: number }[]>();
function importsOf(file: string): { target: string; line: number }[] {
  const known = parsed.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { target: string; line: number }[] = [];
  const add = (spec: ts.Expression | undefined): void => {
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) return;
    const base = path.resolve(path.dirname(file), spec.text.replace(/\.js$/, ''));
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((t) => allFiles.has(t)) ?? base;
    out.push({ target, line: source.getLineAndCharacterOfPosition(spec.getStart(source)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    // `import('…')` types and dynamic imports are arrows too.
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  parsed.set(file, out);
  return out;
}

const files = coreFiles();
const allFiles = new Set(files);

describe('the rooms of src/core', () => {
  const order = declaredOrder();
  const floor = new Map(order.map((room, i) => [room, i]));

  it('the map declares every room once, and every file of the core sits in a room', () => {
    assert.ok(order.length > 10, `the map in src/core/README.md lists the rooms (found ${order.length})`);
    assert.equal(new Set(order).size, order.length, `a room is declared twice: ${order.join(', ')}`);
    const loose = files.filter((f) => path.dirname(f) === CORE).map(rel);
    assert.deepEqual(loose, [], 'every file of the core belongs in a room (a folder of src/core)');
    const undeclared = [...new Set(files.map(roomOf))].filter((r) => !floor.has(r));
    assert.deepEqual(undeclared, [], 'a new room takes its place in the map of src/core/README.md');
  });

  it('a room imports only rooms below it in the map (type-only imports and re-exports count)', () => {
    const upward: string[] = [];
    for (const f of files) {
      for (const { target, line } of importsOf(f)) {
        if (!target.startsWith(CORE + path.sep)) {
          upward.push(`${rel(f)}:${line} leaves src/core (${path.relative(REPO, target)})`);
          continue;
        }
        const from = roomOf(f);
        const to = roomOf(target);
        if (from !== to && (floor.get(to) ?? Infinity) >= (floor.get(from) ?? -1))
          upward.push(`${rel(f)}:${line} → ${rel(target)} (${from} may not import ${to})`);
      }
    }
    assert.deepEqual(upward, [], 'an arrow against the order of src/core/README.md');
  });

  it('no file of the core takes part in an import cycle', () => {
    const edges = new Map(files.map((f) => [f, [...new Set(importsOf(f).map((i) => i.target))].filter((t) => allFiles.has(t))]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const walk = (f: string): void => {
      state.set(f, 'open');
      stack.push(f);
      for (const t of edges.get(f) ?? []) {
        if (state.get(t) === 'open') cycles.push([...stack.slice(stack.indexOf(t)), t].map(rel).join(' → '));
        else if (!state.has(t)) walk(t);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) walk(f);
    assert.deepEqual(cycles, [], 'an import cycle');
  });

  it('the kernel, at the bottom, imports no other room', () => {
    assert.equal(order[0], 'kernel');
  });

  it('the questions (issue 42) stand at the top: they read every room and no room imports them', () => {
    assert.equal(order.at(-1), 'questions');
  });
});
