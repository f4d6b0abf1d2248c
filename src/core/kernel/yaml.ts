/**
 * The parts of the `yaml` library TeamFusion uses, loaded on first use: activating the extension never parses the
 * library (it loads with the first review). Import these from here, types straight from 'yaml'. Parsing goes only
 * through parseDocumentUnique (a source scan in test/unit/files/yamlScan.test.ts keeps it so). The bundles keep the
 * library in a file of its own, dist/yaml.js (see esbuild.mjs).
 */
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;
const lib = (): typeof Yaml => (loaded ??= require('yaml') as typeof Yaml);

export const stringify = ((...a: Parameters<typeof Yaml.stringify>) => lib().stringify(...a)) as typeof Yaml.stringify;
export const visit = ((...a: Parameters<typeof Yaml.visit>) => lib().visit(...a)) as typeof Yaml.visit;
export const isMap = ((n: unknown) => lib().isMap(n)) as typeof Yaml.isMap;
export const isSeq = ((n: unknown) => lib().isSeq(n)) as typeof Yaml.isSeq;
export const isScalar = ((n: unknown) => lib().isScalar(n)) as typeof Yaml.isScalar;
/** The CST helpers (CST.tokenType …), from the library when first touched. */
export const CST = new Proxy({} as typeof Yaml.CST, { get: (_, name) => lib().CST[name as keyof typeof Yaml.CST] });
/** `new LineCounter()` / `new Document(value)` / `new Lexer()` construct the library's own classes. */
export const Lexer = function Lexer() {
  return new (lib().Lexer)();
} as unknown as typeof Yaml.Lexer;
export const Document = function Document(...a: ConstructorParameters<typeof Yaml.Document>) {
  return new (lib().Document)(...a);
} as unknown as typeof Yaml.Document;

/**
 * parseDocument with unique map keys checked in linear time. The library's own `uniqueKeys` compares every key with
 * every earlier one (a 1 MB file of 60,000 keys took minutes): here the library parses without it and each map's keys go
 * through a Set, each repeat reported as the library reports it ("Map keys must be unique", DUPLICATE_KEY, at the key).
 * Every YAML file of a review is parsed through this.
 */
export function parseDocumentUnique(
  source: string,
  options: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions = {},
): Yaml.Document.Parsed {
  const y = lib();
  const doc = y.parseDocument(source, { ...options, uniqueKeys: false });
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (y.isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key;
        if (y.isScalar(key) || key === null || typeof key !== 'object') {
          const value = y.isScalar(key) ? key.value : key;
          const id = `${typeof value}:${String(value)}`;
          if (seen.has(id)) {
            const start = y.isScalar(key) ? (key.range?.[0] ?? 0) : 0;
            doc.errors.push(new y.YAMLParseError([start, start + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
          } else seen.add(id);
        }
        stack.push(pair.key, pair.value);
      }
    } else if (y.isSeq(node)) {
      for (const item of node.items) stack.push(item);
    } else if (y.isPair(node)) {
      stack.push(node.key, node.value);
    }
  }
  return doc;
}

/** Plain-words explanations of the yaml parser's error codes (the first error only is reported: later ones cascade). */
export function yamlProblem(code: string, message: string): string {
  switch (code) {
    case 'DUPLICATE_KEY':
      return 'This field appears twice in the same block; keep only one.';
    case 'TAB_AS_INDENT':
      return 'YAML does not allow tabs for indentation; indent with spaces.';
    case 'BAD_INDENT':
      return 'The indentation is off here; line up the fields of one entry under each other, with spaces.';
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return 'A value here contains ": " or runs onto the next line; put the whole text in quotes, or fix the indentation.';
    case 'UNEXPECTED_TOKEN':
      if (/at node end/.test(message)) {
        return `More text follows a finished value. If a text starts with a quote, put the whole text in quotes, e.g. justification: 'The line "…" is nice'.`;
      }
      return 'Something unexpected is here; check the indentation and that each line is "field: value" or "- field: value".';
    case 'MULTIPLE_DOCS':
      return 'A ranking file holds one document; remove the extra "---" line and what follows it, or merge the two.';
    case 'MISSING_CHAR':
      return /quote/.test(message) ? 'A quote is not closed; end the text with the same quote it starts with.' : `${message}.`;
    default:
      return `${message}.`;
  }
}

/** A document parsed through parseDocumentUnique, with 1-based positions; its first error (later ones cascade) in plain words. */
export interface YamlDocument {
  doc: Yaml.Document.Parsed;
  /** The line and column of an offset into the source. */
  at: (offset: number) => { line: number; column: number };
  /** The line and column where a node starts, as a diagnostic takes them; 1:1 for what has no place (a pair, nothing). */
  startOf: (node: unknown) => [number, number];
  firstError?: { problem: string; line: number; column: number };
}

/**
 * The one preamble of every YAML file a review holds: parse (no pretty errors, positions counted), and the first error
 * as yamlProblem's sentence at its line:col. The caller says what the file is ("This is not valid YAML: …").
 */
export function parseYamlDocument(
  source: string,
  options: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions = {},
): YamlDocument {
  const lineCounter = new (lib().LineCounter)();
  const doc = parseDocumentUnique(source, { ...options, lineCounter, prettyErrors: false });
  const at = (offset: number): { line: number; column: number } => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const startOf = (node: unknown): [number, number] => {
    const range = (node as Yaml.Node | null)?.range;
    if (!range) return [1, 1];
    const p = at(range[0]);
    return [p.line, p.column];
  };
  const first = doc.errors[0];
  if (!first) return { doc, at, startOf };
  const problem = yamlProblem(first.code, first.message.split(/ at line \d+/)[0] ?? first.message);
  return { doc, at, startOf, firstError: { problem, ...at(first.pos[0]) } };
}
