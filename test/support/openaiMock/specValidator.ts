/**
 * Validates request bodies against OpenAI's official OpenAPI spec (test/support/openai-spec/openapi.json, MIT licence).
 * The operation → schema mapping is read from the spec's paths; the schemas come from openai-subset.schema.json
 * beside it when that file holds them (a ready-made 2020-12 conversion), else from openapi.json converted here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { convertOpenApiSchema, isObject, reachableComponents, type JsonObject } from './openapiSchema';
import type { UploadedFile } from './types';

export type SpecOperation = 'chat' | 'edit' | 'editJson' | 'file' | 'batch';
export type SchemaSource = 'subset' | 'openapi';

/** Where each validated operation lives in the spec. */
const OPERATIONS: Record<SpecOperation, { path: string; contentType: string }> = {
  chat: { path: '/chat/completions', contentType: 'application/json' },
  edit: { path: '/images/edits', contentType: 'multipart/form-data' },
  editJson: { path: '/images/edits', contentType: 'application/json' },
  file: { path: '/files', contentType: 'multipart/form-data' },
  batch: { path: '/batches', contentType: 'application/json' },
};
/** The operations the ready-made subset may cover; files and batches are always converted from openapi.json. */
const OPERATION_NAMES: SpecOperation[] = ['chat', 'edit', 'editJson'];
const CONVERTED_OPERATIONS: SpecOperation[] = ['file', 'batch'];

const SUBSET_FILE = 'openai-subset.schema.json';
/** Placeholder standing for a file part when a multipart body is validated. */
export const BINARY_PLACEHOLDER = '<binary>';

export class SpecNotFoundError extends Error {}

/** The folder holding package.json above `start` (the repository root), or undefined. */
export function findRepoRoot(start: string = __dirname): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Path of openapi.json: `explicit`, else env TEAMFUSION_OPENAI_SPEC, else the copy kept in the repository
 * (test/support/openai-spec: the operations the mock validates and what they reference, with OpenAI's MIT licence).
 * A folder means its openapi.json.
 */
export function resolveSpecPath(explicit?: string): string {
  let candidate = explicit ?? process.env.TEAMFUSION_OPENAI_SPEC;
  if (!candidate) {
    const root = findRepoRoot();
    if (!root) throw new SpecNotFoundError('Cannot find the repository root (no package.json above the mock server).');
    candidate = path.join(root, 'test', 'support', 'openai-spec');
  }
  const file = fs.existsSync(candidate) && fs.statSync(candidate).isDirectory() ? path.join(candidate, 'openapi.json') : candidate;
  if (!fs.existsSync(file)) {
    throw new SpecNotFoundError(`OpenAI's OpenAPI spec was not found at ${file}; set TEAMFUSION_OPENAI_SPEC to its path.`);
  }
  return file;
}

export interface SpecValidator {
  readonly specFile: string;
  readonly source: SchemaSource;
  /** Component names validated per operation, e.g. CreateChatCompletionRequest. */
  readonly schemaNames: Record<SpecOperation, string | undefined>;
  /** Violations of a JSON request body (empty when valid). */
  validateJson(op: SpecOperation, body: unknown): string[];
  /** Violations of a multipart request: text fields are coerced by the schema's types, files become placeholders. */
  validateMultipart(op: SpecOperation, fields: Array<{ name: string; value: string }>, files: UploadedFile[]): string[];
}

interface CompiledOperation {
  validate: ValidateFunction;
  root: JsonObject;
  name: string | undefined;
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

function operationSchema(spec: JsonObject, op: SpecOperation): unknown {
  const { path: p, contentType } = OPERATIONS[op];
  const paths = isObject(spec.paths) ? spec.paths : {};
  const item = isObject(paths[p]) ? paths[p] : undefined;
  const post = item && isObject(item.post) ? item.post : undefined;
  const body = post && isObject(post.requestBody) ? post.requestBody : undefined;
  const content = body && isObject(body.content) ? body.content : undefined;
  const media = content && isObject(content[contentType]) ? content[contentType] : undefined;
  if (!media || media.schema === undefined) {
    throw new SpecNotFoundError(`The spec has no ${contentType} request body for POST ${p}.`);
  }
  return media.schema;
}

function componentName(schema: unknown): string | undefined {
  const prefix = '#/components/schemas/';
  return isObject(schema) && typeof schema.$ref === 'string' && schema.$ref.startsWith(prefix)
    ? schema.$ref.slice(prefix.length)
    : undefined;
}

function collectFormats(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectFormats(item, into);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && typeof value === 'string') into.add(value);
      else if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') collectFormats(value, into);
    }
  }
}

function formatError(e: ErrorObject): string {
  const where = `body${e.instancePath}`;
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `${where} ${e.message ?? 'is invalid'}: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return `${where} must not have property '${params.additionalProperty}'`;
  }
  return `${where} ${e.message ?? 'is invalid'} (${e.schemaPath})`;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  const lines = [...new Set((errors ?? []).map(formatError))];
  return lines.length > 12 ? [...lines.slice(0, 12), `… and ${lines.length - 12} more`] : lines;
}

/** JSON types a schema admits (following $ref and combinators one level deep at a time). */
function admittedTypes(schema: unknown, defs: JsonObject, depth = 0): Set<string> {
  const types = new Set<string>();
  if (!isObject(schema) || depth > 8) return types;
  if (typeof schema.type === 'string') types.add(schema.type);
  if (Array.isArray(schema.type)) for (const t of schema.type) if (typeof t === 'string') types.add(t);
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/')) {
    for (const t of admittedTypes(defs[schema.$ref.slice('#/$defs/'.length)], defs, depth + 1)) types.add(t);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const sub of list) for (const t of admittedTypes(sub, defs, depth + 1)) types.add(t);
  }
  return types;
}

function propertySchema(root: JsonObject, defs: JsonObject, name: string, depth = 0): unknown {
  if (depth > 8) return undefined;
  if (isObject(root.properties) && name in root.properties) return root.properties[name];
  if (typeof root.$ref === 'string' && root.$ref.startsWith('#/$defs/')) {
    const target = defs[root.$ref.slice('#/$defs/'.length)];
    if (isObject(target)) return propertySchema(target, defs, name, depth + 1);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = root[key];
    if (!Array.isArray(list)) continue;
    for (const sub of list) {
      if (!isObject(sub)) continue;
      const found = propertySchema(sub, defs, name, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function coerceText(value: string, types: Set<string>): unknown {
  if (types.has('string') || types.size === 0) return value;
  if ((types.has('integer') || types.has('number')) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.has('null') && value === 'null') return null;
  return value;
}

class AjvSpecValidator implements SpecValidator {
  readonly schemaNames: Record<SpecOperation, string | undefined>;

  constructor(
    readonly specFile: string,
    readonly source: SchemaSource,
    private readonly ops: Record<SpecOperation, CompiledOperation>,
  ) {
    this.schemaNames = {
      chat: ops.chat.name,
      edit: ops.edit.name,
      editJson: ops.editJson.name,
      file: ops.file.name,
      batch: ops.batch.name,
    };
  }

  validateJson(op: SpecOperation, body: unknown): string[] {
    const compiled = this.ops[op];
    return compiled.validate(body) ? [] : formatErrors(compiled.validate.errors);
  }

  validateMultipart(op: SpecOperation, fields: Array<{ name: string; value: string }>, files: UploadedFile[]): string[] {
    const compiled = this.ops[op];
    const defs = isObject(compiled.root.$defs) ? compiled.root.$defs : {};
    const grouped = new Map<string, { array: boolean; values: unknown[] }>();
    const add = (rawName: string, value: unknown): void => {
      const array = rawName.endsWith('[]');
      const name = array ? rawName.slice(0, -2) : rawName;
      const entry = grouped.get(name) ?? { array: false, values: [] };
      entry.array ||= array;
      entry.values.push(value);
      grouped.set(name, entry);
    };
    for (const f of fields) {
      const rawName = f.name;
      const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName;
      const prop = propertySchema(compiled.root, defs, name);
      let types = admittedTypes(prop, defs);
      if (types.has('array') && isObject(prop)) {
        // Items of an array field: coerce by the item type.
        const itemTypes = new Set<string>();
        const visit = (s: unknown): void => {
          if (!isObject(s)) return;
          if (s.items !== undefined) for (const t of admittedTypes(s.items, defs)) itemTypes.add(t);
          for (const key of ['anyOf', 'oneOf', 'allOf']) {
            const list = s[key];
            if (Array.isArray(list)) list.forEach(visit);
          }
        };
        visit(prop);
        if (rawName.endsWith('[]')) types = itemTypes;
      }
      add(rawName, coerceText(f.value, types));
    }
    for (const file of files) add(file.field, BINARY_PLACEHOLDER);
    const instance: JsonObject = {};
    for (const [name, entry] of grouped) instance[name] = entry.array || entry.values.length > 1 ? entry.values : entry.values[0];
    return this.validateJson(op, instance);
  }
}

function newAjv(defs: unknown): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({ strict: false, allErrors: false, logger: false, validateFormats: true });
  addFormats(ajv);
  const formats = new Set<string>();
  collectFormats(defs, formats);
  for (const f of formats) if (!ajv.formats[f]) ajv.addFormat(f, true);
  return ajv;
}

function loadSubset(specDir: string, names: string[]): JsonObject | undefined {
  const file = path.join(specDir, SUBSET_FILE);
  if (!fs.existsSync(file)) return undefined;
  try {
    const subset = readJson(file);
    if (!isObject(subset) || !isObject(subset.$defs)) return undefined;
    const defs = subset.$defs;
    return names.every((n) => n in defs) ? defs : undefined;
  } catch {
    return undefined;
  }
}

const cache = new Map<string, SpecValidator>();

/**
 * Loads (once per spec file and source preference) a validator for the chat, image-edit, file-upload and batch request bodies.
 * `prefer: 'openapi'` skips the ready-made subset and converts openapi.json itself.
 */
export function loadSpecValidator(specPath?: string, prefer: SchemaSource = 'subset'): SpecValidator {
  const specFile = resolveSpecPath(specPath);
  const key = `${specFile}\0${prefer}`;
  const cached = cache.get(key);
  if (cached) return cached;

  const spec = readJson(specFile);
  if (!isObject(spec)) throw new SpecNotFoundError(`${specFile} is not an OpenAPI document.`);
  const components = isObject(spec.components) && isObject(spec.components.schemas) ? spec.components.schemas : {};
  const opSchemas = {} as Record<SpecOperation, unknown>;
  const names = {} as Record<SpecOperation, string | undefined>;
  for (const op of OPERATION_NAMES) {
    opSchemas[op] = operationSchema(spec, op);
    names[op] = componentName(opSchemas[op]);
  }

  const wanted = OPERATION_NAMES.map((op) => names[op]).filter((n): n is string => n !== undefined);
  const subsetDefs =
    prefer === 'subset' && wanted.length === OPERATION_NAMES.length ? loadSubset(path.dirname(specFile), wanted) : undefined;

  let defs: JsonObject;
  let source: SchemaSource;
  if (subsetDefs) {
    defs = subsetDefs;
    source = 'subset';
  } else {
    const reachable = new Set<string>();
    for (const s of Object.values(opSchemas)) for (const n of reachableComponents(s, components)) reachable.add(n);
    defs = {};
    for (const n of [...reachable].sort()) defs[n] = convertOpenApiSchema(components[n]);
    source = 'openapi';
  }

  const compiler = (d: JsonObject) => {
    const ajv = newAjv(d);
    return (op: SpecOperation, schema: unknown = opSchemas[op]): CompiledOperation => {
      const converted = convertOpenApiSchema(schema);
      const root: JsonObject = { ...(isObject(converted) ? converted : {}), $defs: d };
      const body = isObject(converted) ? converted : {};
      const validate = ajv.compile({ ...body, $id: `openai-${op}-request.json`, $defs: d });
      return { validate, root, name: componentName(schema) };
    };
  };
  const compile = compiler(defs);
  // Files and batches: their schemas converted from openapi.json, whatever the source of the others.
  const extraSchemas = CONVERTED_OPERATIONS.map((op) => operationSchema(spec, op));
  const extraNames = new Set<string>();
  for (const sch of extraSchemas) for (const n of reachableComponents(sch, components)) extraNames.add(n);
  const extraDefs: JsonObject = {};
  for (const n of [...extraNames].sort()) extraDefs[n] = convertOpenApiSchema(components[n]);
  const compileExtra = compiler(extraDefs);
  const validator = new AjvSpecValidator(specFile, source, {
    chat: compile('chat'),
    edit: compile('edit'),
    editJson: compile('editJson'),
    file: compileExtra('file', extraSchemas[0]),
    batch: compileExtra('batch', extraSchemas[1]),
  });
  cache.set(key, validator);
  return validator;
}
