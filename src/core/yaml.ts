/**
 * The parts of the `yaml` library TeamFusion uses, loaded on first use: activating the extension never parses the
 * library (it loads with the first review). Import these from here, types straight from 'yaml'. The bundles keep the
 * library in a file of its own, dist/yaml.js (see esbuild.mjs).
 */
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;
const lib = (): typeof Yaml => (loaded ??= require('yaml') as typeof Yaml);

export const parse = ((...a: Parameters<typeof Yaml.parse>) => lib().parse(...a)) as typeof Yaml.parse;
export const stringify = ((...a: Parameters<typeof Yaml.stringify>) => lib().stringify(...a)) as typeof Yaml.stringify;
export const parseDocument = ((...a: Parameters<typeof Yaml.parseDocument>) => lib().parseDocument(...a)) as typeof Yaml.parseDocument;
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
export const LineCounter = function LineCounter() {
  return new (lib().LineCounter)();
} as unknown as typeof Yaml.LineCounter;
export const Document = function Document(...a: ConstructorParameters<typeof Yaml.Document>) {
  return new (lib().Document)(...a);
} as unknown as typeof Yaml.Document;
