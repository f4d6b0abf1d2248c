/** Shared bits of the mock server tests. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import OpenAI from 'openai';
import { resolveSpecPath } from '../../support/openaiMock/specValidator';
import { WAIT_CEILING_MS } from '../../support/waitFor';

export function client(baseURL: string, o: { maxRetries?: number; timeout?: number } = {}): OpenAI {
  return new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: o.maxRetries ?? 0, timeout: o.timeout ?? WAIT_CEILING_MS });
}

/** A validator for one of the subset's definitions (responses included), to check what the mock answers. */
export function subsetValidator(name: string): (value: unknown) => string[] {
  const file = path.join(path.dirname(resolveSpecPath()), 'openai-subset.schema.json');
  const subset = JSON.parse(fs.readFileSync(file, 'utf8')) as { $defs: Record<string, unknown> };
  const ajv = new Ajv2020({ strict: false, logger: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addFormat('unixtime', true);
  const validate = ajv.compile({ $defs: subset.$defs, $ref: `#/$defs/${name}` });
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`));
}

/** Parses an SSE body into its data payloads. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .map((block) => block.trim())
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
