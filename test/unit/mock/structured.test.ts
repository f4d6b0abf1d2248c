import * as assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import { instanceFromSchema, MockOpenAI } from '../../support/openaiMock';
import { client } from './helpers';

const ajv = new Ajv2020({ strict: false, allErrors: true });

function assertValid(schema: object, value: unknown): void {
  const validate = ajv.compile(schema);
  assert.ok(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
}

/** A remix-agent-like schema: option fields are enums of the current candidates. */
const remixSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['top', 'ranking', 'directions', 'confidence', 'final', 'note'],
  properties: {
    top: { type: 'array', items: { type: 'string', enum: ['opt-1', 'opt-2', 'opt-3', 'opt-4'] }, minItems: 2, maxItems: 2 },
    ranking: {
      type: 'array',
      minItems: 3,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['option', 'reason', 'score'],
        properties: {
          option: { $ref: '#/$defs/optionId' },
          reason: { type: 'string' },
          score: { type: 'integer', minimum: 1, maximum: 5 },
        },
      },
    },
    directions: { type: 'array', items: { type: 'string' }, minItems: 1 },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    final: { type: 'boolean' },
    note: { anyOf: [{ type: 'null' }, { type: 'string', maxLength: 12 }] },
  },
  $defs: { optionId: { type: 'string', enum: ['opt-1', 'opt-2', 'opt-3', 'opt-4'] } },
};

describe('mock OpenAI: JSON instances generated from a schema', () => {
  it('fills every property and respects enums, ranges, lengths, anyOf and $ref', () => {
    const value = instanceFromSchema(remixSchema) as Record<string, unknown>;
    assertValid(remixSchema, value);
    assert.deepEqual(value.top, ['opt-1', 'opt-2'], 'arrays of enums: distinct values in enum order');
    const ranking = value.ranking as Array<{ option: string }>;
    assert.equal(ranking.length, 3);
    assert.equal(new Set(ranking.map((r) => r.option)).size, 3, 'array items pick different enum values');
    assert.equal(typeof value.note, 'string');
  });

  it('handles nullable types, oneOf, allOf, const, nested objects and empty enums of arrays', () => {
    const schema = {
      type: 'object',
      properties: {
        kind: { const: 'remix' },
        maybe: { type: ['null', 'integer'], minimum: 3 },
        pick: { oneOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'number' }] },
        merged: {
          allOf: [
            { type: 'object', properties: { x: { type: 'string' } } },
            { type: 'object', properties: { y: { type: 'integer', exclusiveMaximum: 0 } } },
          ],
        },
        tags: { type: 'array', items: { enum: ['warm', 'cool', 'neutral', 'bold'] } },
        deep: {
          type: 'object',
          properties: { list: { type: 'array', minItems: 4, maxItems: 4, items: { type: 'string' }, uniqueItems: true } },
        },
      },
    };
    const value = instanceFromSchema(schema) as Record<string, unknown>;
    assertValid(schema, value);
    assert.equal(value.kind, 'remix');
    assert.deepEqual(value.tags, ['warm', 'cool']);
    assert.equal((value.deep as { list: string[] }).list.length, 4);
  });

  it('answers a json_schema chat request with JSON valid against that schema (both non-stream and stream)', async () => {
    const mock = await MockOpenAI.start();
    try {
      const c = client(mock.baseURL);
      const response_format = { type: 'json_schema' as const, json_schema: { name: 'remix', strict: true, schema: remixSchema } };
      const r = await c.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Decide.' }], response_format });
      assertValid(remixSchema, JSON.parse(r.choices[0]?.message.content ?? ''));
      const stream = await c.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Decide.' }],
        response_format,
        stream: true,
      });
      let text = '';
      let pieces = 0;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta?.content;
        if (delta) pieces++;
        text += delta ?? '';
      }
      assertValid(remixSchema, JSON.parse(text));
      assert.ok(pieces > 3, `JSON streams in pieces (${pieces})`);
      mock.enqueue('chat', { kind: 'json', value: { top: ['x'] } });
      const scripted = await c.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Decide.' }],
        response_format,
      });
      assert.deepEqual(JSON.parse(scripted.choices[0]?.message.content ?? ''), { top: ['x'] });
      assert.deepEqual(mock.specErrors(), []);
    } finally {
      await mock.close();
    }
  });
});
