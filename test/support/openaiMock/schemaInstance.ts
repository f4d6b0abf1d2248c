/**
 * Makes a plausible JSON instance of a JSON Schema (the subset used for structured outputs):
 * every object property, enums respected, arrays of enums as distinct values in enum order,
 * anyOf/oneOf take their first non-null branch, $ref into $defs/definitions is followed.
 */
import { isObject, type JsonObject } from './openapiSchema';

interface Context {
  root: JsonObject;
  /** Index of the array item being generated (0 outside arrays): varies enum picks and texts across items. */
  variant: number;
  depth: number;
}

const MAX_DEPTH = 12;

function resolveRef(ref: string, root: JsonObject): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

function firstType(schema: JsonObject): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t): t is string => typeof t === 'string');
    return types.find((t) => t !== 'null') ?? types[0];
  }
  if (isObject(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
}

const SENTENCES = [
  'Keep the warm palette and the calm, centred composition.',
  'Borrow the bolder typography while softening the background.',
  'Combine the clean silhouette with the richer texture of the runner-up.',
  'Reduce visual noise so the product stays the clear focal point.',
];

function makeString(schema: JsonObject, name: string, ctx: Context): string {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  let text: string;
  switch (format) {
    case 'date-time':
      text = '2026-01-01T00:00:00Z';
      break;
    case 'date':
      text = '2026-01-01';
      break;
    case 'time':
      text = '12:00:00Z';
      break;
    case 'email':
      text = 'designer@example.com';
      break;
    case 'uri':
    case 'url':
      text = 'https://example.com/';
      break;
    case 'uuid':
      text = `00000000-0000-4000-8000-${String(ctx.variant).padStart(12, '0')}`;
      break;
    default: {
      const label = words(name);
      if (
        /(reasons?|rationale|justifications?|directions?|instructions?|summary|explanation|prompt|description|feedback|notes?|comments?|changes?)$/.test(
          label,
        )
      ) {
        text = SENTENCES[ctx.variant % SENTENCES.length] ?? label;
      } else if (/\bid$/.test(label) || label === 'id') {
        text = `${label.replace(/\s+/g, '-')}-${ctx.variant + 1}`;
      } else {
        text = label ? `Sample ${label}${ctx.variant > 0 ? ` ${ctx.variant + 1}` : ''}` : 'Sample text';
      }
    }
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  while (text.length < min) text += ' More detail.';
  return text.length > max ? text.slice(0, max) : text;
}

function makeNumber(schema: JsonObject, integer: boolean): number {
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  let lo = num(schema.minimum);
  let hi = num(schema.maximum);
  const exLo = num(schema.exclusiveMinimum);
  const exHi = num(schema.exclusiveMaximum);
  if (exLo !== undefined) lo = integer ? Math.floor(exLo) + 1 : exLo + (hi !== undefined ? (hi - exLo) / 4 : 0.5);
  if (exHi !== undefined) hi = integer ? Math.ceil(exHi) - 1 : exHi - (lo !== undefined ? (exHi - lo) / 4 : 0.5);
  let value: number;
  if (lo !== undefined && hi !== undefined) value = (lo + hi) / 2;
  else if (lo !== undefined) value = lo + (integer ? 1 : 0.5);
  else if (hi !== undefined) value = Math.min(hi, integer ? 1 : 0.5);
  else value = integer ? 1 : 0.5;
  if (integer) {
    value = Math.round(value);
    if (lo !== undefined && value < lo) value = Math.ceil(lo);
    if (hi !== undefined && value > hi) value = Math.floor(hi);
  }
  const step = num(schema.multipleOf);
  if (step && step > 0) value = Math.max(lo ?? -Infinity, Math.round(value / step) * step);
  return value;
}

/** The enum of a schema, following $ref / single-branch combinators, or undefined. */
function enumOf(schema: unknown, ctx: Context): unknown[] | undefined {
  const s = deref(schema, ctx);
  if (!isObject(s)) return undefined;
  if (Array.isArray(s.enum)) return s.enum.filter((v) => v !== null);
  if ('const' in s) return [s.const];
  for (const key of ['anyOf', 'oneOf']) {
    const list = s[key];
    if (Array.isArray(list)) {
      const values = list.flatMap((b) => enumOf(b, ctx) ?? []);
      if (values.length > 0) return [...new Set(values)];
    }
  }
  return undefined;
}

function deref(schema: unknown, ctx: Context): unknown {
  let s = schema;
  for (let i = 0; i < 16 && isObject(s) && typeof s.$ref === 'string'; i++) {
    const target = resolveRef(s.$ref, ctx.root);
    const { $ref: _ignored, ...rest } = s;
    s = isObject(target) ? { ...target, ...rest } : rest;
  }
  return s;
}

function arrayLength(schema: JsonObject, available?: number): number {
  const min = typeof schema.minItems === 'number' ? schema.minItems : undefined;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  let n = Math.max(min ?? 0, Math.min(max ?? 3, min !== undefined ? Math.max(min, 2) : 2));
  if (available !== undefined) n = Math.min(Math.max(n, Math.min(min ?? 0, available)), available);
  return n;
}

function generate(schemaIn: unknown, name: string, ctx: Context): unknown {
  if (schemaIn === true || schemaIn === undefined) return makeString({}, name, ctx);
  const schema = deref(schemaIn, ctx);
  if (!isObject(schema) || ctx.depth > MAX_DEPTH) return null;
  const inner: Context = { ...ctx, depth: ctx.depth + 1 };

  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((v) => v !== null);
    return values.length > 0 ? values[ctx.variant % values.length] : null;
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    // Merge the parts into one schema: properties and required lists are united, other keywords overlaid.
    const { allOf, ...rest } = schema;
    const merged: JsonObject = {};
    const properties: JsonObject = {};
    const required = new Set<unknown>();
    for (const part of [rest, ...allOf].map((p) => deref(p, ctx))) {
      if (!isObject(part)) continue;
      Object.assign(merged, part);
      if (isObject(part.properties)) Object.assign(properties, part.properties);
      if (Array.isArray(part.required)) for (const r of part.required) required.add(r);
    }
    delete merged.allOf;
    if (Object.keys(properties).length > 0) {
      merged.properties = properties;
      merged.type ??= 'object';
    }
    if (required.size > 0) merged.required = [...required];
    return generate(merged, name, inner);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) {
      const branch = list.find((b) => {
        const d = deref(b, ctx);
        return !(isObject(d) && (d.type === 'null' || (Array.isArray(d.enum) && d.enum.every((v) => v === null))));
      });
      const { [key]: _dropped, ...rest } = schema;
      const merged = isObject(branch) ? { ...rest, ...branch } : rest;
      return generate(merged, name, inner);
    }
  }

  switch (firstType(schema)) {
    case 'object': {
      const out: JsonObject = {};
      const props = isObject(schema.properties) ? schema.properties : {};
      for (const [prop, sub] of Object.entries(props)) out[prop] = generate(sub, prop, inner);
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const req of required) if (typeof req === 'string' && !(req in out)) out[req] = makeString({}, req, inner);
      return out;
    }
    case 'array': {
      const items = Array.isArray(schema.prefixItems) ? undefined : schema.items;
      if (Array.isArray(schema.prefixItems)) {
        return schema.prefixItems.map((p, i) => generate(p, name, { ...inner, variant: i }));
      }
      const values = enumOf(items, ctx);
      if (values) return values.slice(0, arrayLength(schema, values.length));
      const n = arrayLength(schema);
      return Array.from({ length: n }, (_, i) => generate(items, singular(name), { ...inner, variant: i }));
    }
    case 'string':
      return makeString(schema, name, ctx);
    case 'integer':
      return makeNumber(schema, true);
    case 'number':
      return makeNumber(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return makeString(schema, name, ctx);
  }
}

function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name;
}

/** A JSON value that satisfies `schema` (for the schemas structured outputs accept). */
export function instanceFromSchema(schema: unknown, name = 'value'): unknown {
  const root = isObject(schema) ? schema : {};
  return generate(schema, name, { root, variant: 0, depth: 0 });
}
