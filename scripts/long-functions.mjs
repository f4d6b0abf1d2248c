// Lists the functions in src/ and webview/ longer than a limit (100 lines unless given), longest first:
//   node scripts/long-functions.mjs [limit]
// A dev tool for the "no function over 100 lines" rule; it reads the sources with the TypeScript compiler's parser.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const limit = Number(process.argv[2] ?? 100);
const root = new URL('..', import.meta.url).pathname;
const files = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const f = join(dir, e.name);
    if (e.isDirectory()) walk(f);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(f);
  }
};
for (const d of ['src', 'webview']) walk(join(root, d));

const nameOf = (node) => {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
};
const found = [];
for (const file of files) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      const end = sf.getLineAndCharacterOfPosition(node.end).line + 1;
      if (end - start + 1 > limit) found.push({ lines: end - start + 1, where: `${relative(root, file)}:${start}`, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.where}`);
console.log(`${found.length} function${found.length === 1 ? '' : 's'} over ${limit} lines.`);
