/**
 * Turns OpenAPI 3.x component schemas into JSON Schema 2020-12 that ajv compiles:
 * `nullable` becomes a null type, `x-*`, `discriminator` and `example` go, `#/components/schemas/` refs become `#/$defs/`.
 */

export type JsonObject = { [key: string]: unknown };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const COMPONENT_PREFIX = '#/components/schemas/';

/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, not a schema: never rewritten. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);

function convertValue(key: string, value: unknown): unknown {
  if (DATA_KEYWORDS.has(key)) return value;
  if (SCHEMA_MAPS.has(key) && isObject(value)) {
    const out: JsonObject = {};
    for (const [name, sub] of Object.entries(value)) out[name] = convertOpenApiSchema(sub);
    return out;
  }
  if (Array.isArray(value)) return value.map((item) => convertOpenApiSchema(item));
  if (isObject(value)) return convertOpenApiSchema(value);
  return value;
}

/** Converts one OpenAPI schema (recursively). Non-objects are returned unchanged. */
export function convertOpenApiSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || key === 'discriminator' || key === 'example' || key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.startsWith(COMPONENT_PREFIX) ? `#/$defs/${value.slice(COMPONENT_PREFIX.length)}` : value;
      continue;
    }
    out[key] = convertValue(key, value);
  }
  if (schema.nullable !== true) return out;
  // nullable: true — allow null.
  if (typeof out.type === 'string' || Array.isArray(out.type)) {
    const types = Array.isArray(out.type) ? [...(out.type as unknown[])] : [out.type];
    if (!types.includes('null')) types.push('null');
    out.type = types;
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  // No type of its own ($ref, anyOf, oneOf…): wrap so null is one more alternative.
  const { description, title, default: dflt, ...rest } = out;
  const wrapped: JsonObject = { anyOf: [rest, { type: 'null' }] };
  if (description !== undefined) wrapped.description = description;
  if (title !== undefined) wrapped.title = title;
  if (dflt !== undefined) wrapped.default = dflt;
  return wrapped;
}

/** Names of the components reachable (through $ref) from `start`. */
export function reachableComponents(start: unknown, components: JsonObject): Set<string> {
  const seen = new Set<string>();
  const stack: unknown[] = [start];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
    } else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_PREFIX)) {
          const name = value.slice(COMPONENT_PREFIX.length);
          if (!seen.has(name) && name in components) {
            seen.add(name);
            stack.push(components[name]);
          }
        } else if (!DATA_KEYWORDS.has(key)) {
          stack.push(value);
        }
      }
    }
  }
  return seen;
}
