/**
 * Which JSON schemas node-llama-cpp 3.21.1 turns into a grammar faithfully. Its converter (createGrammarForJsonSchema)
 * reads only the keywords below; anything else it skips without a word, and a schema with no type it knows becomes
 * `null` — so `anyOf` would quietly allow nothing but null. The test server refuses such a schema instead, naming the
 * keyword and where it is, so a product schema outside the converter fails the test rather than passing on a looser grammar.
 */

const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'format',
  'enum',
  'const',
  'oneOf',
  '$ref',
  '$defs',
  'description',
  'title',
]);
const BASIC_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date']);

/** The first thing in `schema` the converter would not honour, as `<path>: <what>`; undefined when it is all honoured. */
export function unsupportedPart(schema: unknown, path = '$'): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return `${path}: a schema must be an object`;
  const s = schema as Record<string, unknown>;
  for (const key of Object.keys(s)) if (!KNOWN.has(key)) return `${path}: keyword "${key}" is not supported by node-llama-cpp's converter`;
  if (s.enum !== undefined || s.const !== undefined || s.$ref !== undefined) return undefined;
  if (Array.isArray(s.oneOf)) {
    for (const [i, alt] of s.oneOf.entries()) {
      const bad = unsupportedPart(alt, `${path}.oneOf[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (s.type === 'object') {
    for (const [name, sub] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {})) {
      const bad = unsupportedPart(sub, `${path}.${name}`);
      if (bad) return bad;
    }
    if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) {
      return unsupportedPart(s.additionalProperties, `${path}.additionalProperties`);
    }
    return undefined;
  }
  if (s.type === 'array') {
    if (s.items !== undefined) {
      const bad = unsupportedPart(s.items, `${path}[]`);
      if (bad) return bad;
    }
    for (const [i, item] of (Array.isArray(s.prefixItems) ? s.prefixItems : []).entries()) {
      const bad = unsupportedPart(item, `${path}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (s.format !== undefined && !FORMATS.has(String(s.format))) return `${path}: format "${String(s.format)}" is not supported`;
  if (types.length === 0 || types.some((t) => typeof t !== 'string' || !BASIC_TYPES.has(t)))
    return `${path}: type ${JSON.stringify(s.type)} (a list may hold only basic types; objects and arrays need a type of their own)`;
  return undefined;
}
