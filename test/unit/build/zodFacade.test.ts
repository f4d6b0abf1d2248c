/**
 * The shared core bundle gives the sources outside the core (src/cli, src/extension, src/protocol) the zod members they
 * name, found by a text scan (scripts/lib/zodMembers.mjs, used by esbuild.mjs). A member the scan missed would be undefined
 * at run time, so this reads the same sources with TypeScript: zod comes in only as `import * as z from 'zod'`, `z` is
 * used only as `z.<member>`, and the scan finds every member used so, each one zod has.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ts from 'typescript';
import * as zod from 'zod';
import { REPO_ROOT } from '../../support/builtCli';
import { SRC, sourceFiles } from '../../support/sourceFiles';

interface ZodMembersModule {
  zodMembersNamed(files: string[]): string[];
}

const OUTSIDE_CORE = ['cli', 'extension', 'protocol'].map((d) => path.join(SRC, d));

/** What TypeScript sees of zod in `file`: how it is imported, the members read from `z`, and any other use of `z`. */
function zodUse(file: string): { imports: string[]; members: string[]; otherUses: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const imports: string[] = [];
  const members: string[] = [];
  const otherUses: string[] = [];
  let bound = false;
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || s.moduleSpecifier.text !== 'zod') continue;
    const clause = s.importClause;
    if (clause?.isTypeOnly) continue;
    const text = s.getText(source);
    imports.push(text);
    if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings) && clause.namedBindings.name.text === 'z') bound = true;
  }
  if (!bound) return { imports, members, otherUses };
  const where = (n: ts.Node): string => {
    const { line } = source.getLineAndCharacterOfPosition(n.getStart(source));
    return `${path.relative(REPO_ROOT, file)}:${line + 1}`;
  };
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && n.text === 'z') {
      const parent = n.parent;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === n) members.push(parent.name.text);
      else if (ts.isQualifiedName(parent) && parent.left === n) {
        /* a type: z.infer<…>, z.ZodType */
      } else if (ts.isNamespaceImport(parent)) {
        /* the import itself */
      } else if (!(ts.isPropertyAccessExpression(parent) && parent.name === n)) otherUses.push(where(n));
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return { imports, members, otherUses };
}

describe('zod outside the core: every member the sources use reaches them from the shared core bundle', () => {
  let files: string[] = [];
  let seen: ({ file: string } & ReturnType<typeof zodUse>)[] = [];
  let zodMembersNamed: ZodMembersModule['zodMembersNamed'];
  before(async () => {
    ({ zodMembersNamed } = (await import(
      pathToFileURL(path.join(REPO_ROOT, 'scripts', 'lib', 'zodMembers.mjs')).href
    )) as ZodMembersModule);
    files = (await Promise.all(OUTSIDE_CORE.map((d) => sourceFiles(d)))).flat().filter((f) => !f.endsWith('.d.ts'));
    seen = files.map((f) => ({ file: path.relative(REPO_ROOT, f), ...zodUse(f) }));
  });

  it('zod comes in only as `import * as z from "zod"`, and `z` is only read from', () => {
    const otherImports = seen.flatMap((s) => s.imports.filter((i) => i !== "import * as z from 'zod';").map((i) => `${s.file}: ${i}`));
    assert.deepEqual(otherImports, []);
    assert.deepEqual(
      seen.flatMap((s) => s.otherUses),
      [],
    );
    assert.ok(
      seen.some((s) => s.members.length > 0),
      'the sources outside the core do use zod (else this test reads nothing)',
    );
  });

  it('the build’s scan finds every member they read, and zod has each', () => {
    const scanned = new Set(zodMembersNamed(files));
    const read = [...new Set(seen.flatMap((s) => s.members))].sort();
    assert.deepEqual(
      read.filter((m) => !scanned.has(m)),
      [],
      'members the scan missed',
    );
    assert.deepEqual(
      read.filter((m) => !(m in zod)),
      [],
      'members zod does not have',
    );
  });

  it('the scan sees a member written across lines, as Prettier breaks a long chain', () => {
    const all = zodMembersNamed([path.join(REPO_ROOT, 'src', 'cli', 'commands', 'run', 'run.ts')]);
    assert.ok(all.includes('union'), `run.ts's "z\\n    .union(" is found: ${all.join(', ')}`);
  });
});
