/**
 * Every YAML a review holds is parsed through one function, parseDocumentUnique in src/core/kernel/yaml.ts (unique keys checked
 * in linear time). The library's own parse/parseDocument check unique keys in quadratic time, so a source scan fails when
 * code in src/ reaches the library other than through that file: a value import from 'yaml', a require of it, or a call
 * of parse/parseDocument on it.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { SRC, sourceFiles } from '../../support/sourceFiles';

const GATE = path.join(SRC, 'core', 'kernel', 'yaml.ts');

/** `import { parse } from 'yaml'`, `import YAML from "yaml"`, `import * as Y from 'yaml'` — anything but `import type`. */
const VALUE_IMPORT = /^\s*import\s+(?!type\b)[^;]*?from\s*['"]yaml['"]/;
const REQUIRE = /\brequire\(\s*['"]yaml['"]\s*\)|\bimport\(\s*['"]yaml['"]\s*\)/;
/** `YAML.parse(`, `yaml.parseDocument(`, `lib().parse(` — the library's parsers called on a namespace. */
const LIBRARY_PARSE = /\b(?:YAML|Yaml|yaml|lib\(\))\.(?:parse|parseDocument|parseAllDocuments)\s*\(/;

/** The offending lines of one source text, as "line: text". */
export function yamlBypasses(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (VALUE_IMPORT.test(line) || REQUIRE.test(line) || LIBRARY_PARSE.test(line)) found.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

describe('YAML: one parser for every review file (src/core/kernel/yaml.ts)', () => {
  it('the scan sees each way round the gate, and lets types and the gate itself through', () => {
    assert.equal(yamlBypasses("import { parse } from 'yaml';").length, 1);
    assert.equal(yamlBypasses('import YAML from "yaml";').length, 1);
    assert.equal(yamlBypasses("import * as Y from 'yaml';").length, 1);
    assert.equal(yamlBypasses("const y = require('yaml');").length, 1);
    assert.equal(yamlBypasses('const doc = YAML.parseDocument(text, { uniqueKeys: true });').length, 1);
    assert.equal(yamlBypasses("import type { Node, Pair } from 'yaml';").length, 0);
    assert.equal(yamlBypasses("import { parseDocumentUnique } from '../yaml';").length, 0);
    assert.equal(yamlBypasses('const doc = parseDocumentUnique(text);').length, 0);
  });

  it('no source file but src/core/kernel/yaml.ts loads the library or calls its parsers', async () => {
    const found: string[] = [];
    for (const file of await sourceFiles()) {
      if (file === GATE) continue;
      for (const hit of yamlBypasses(await fs.readFile(file, 'utf8'))) found.push(`${path.relative(SRC, file)}:${hit}`);
    }
    assert.deepEqual(found, [], 'parse YAML with parseDocumentUnique from src/core/kernel/yaml.ts');
  });

  it('the gate parses only through the linear check (the library is asked with uniqueKeys off)', async () => {
    const gate = await fs.readFile(GATE, 'utf8');
    const calls = gate.match(/\.parseDocument\([^)]*\)/g) ?? [];
    assert.ok(calls.length >= 1 && calls.every((c) => /uniqueKeys:\s*false/.test(c)), calls.join('\n'));
    assert.doesNotMatch(gate, /export const (?:parse|parseDocument)\b/);
  });
});
