/**
 * The strict schemas the product builds are ones node-llama-cpp's JSON-schema converter honours (the check the llama.cpp
 * test server applies before it makes a grammar, test/support/llamaServer/schemaSupport.ts), with every shape of their
 * arguments the product uses; and that check refuses what the converter would quietly loosen. The integration test
 * (test/integration/llama.test.ts) sends the live ones through the real converter.
 */
import { strict as assert } from 'node:assert';
import { unsupportedPart } from '../../support/llamaServer/schemaSupport';
import { briefRemixJsonSchema } from '../../../src/core/run/brief/briefPrompts';
import { JUDGE_STRUCTURED } from '../../../src/core/judge/judgePrompts';
import { decisionPointsJsonSchema, proposalJsonSchema, remixJsonSchema } from '../../../src/core/remix/remixAgent';
import { codingJsonSchema } from '../../../src/core/analysis/codingPrompt';
import { criteriaStructured } from '../../../src/core/criteria/prompt';

const MEMBERS = ['ana', 'ben', 'chen'];
const OPTIONS = ['1', '2', '3', '4', '5', '6'];

describe("the product's strict schemas and the llama.cpp test server's converter check", () => {
  const schemas: [string, unknown][] = [
    ['brief revision', briefRemixJsonSchema(MEMBERS)],
    ['judge', JUDGE_STRUCTURED.schema],
    ['proposal', proposalJsonSchema(OPTIONS, 3)],
    ['decision points', decisionPointsJsonSchema(MEMBERS)],
    ['remix round', remixJsonSchema(OPTIONS, MEMBERS, false, 3)],
    ['remix round, two remixes and references', remixJsonSchema(OPTIONS, MEMBERS, false, 3, 2, ['ref-1'])],
    ['final pick', remixJsonSchema(['1', '2', 'r1'], MEMBERS, true, 2)],
    ['discussion coding', codingJsonSchema(['i1-m1', 'i1-m2'])],
    [
      'criteria (design)',
      criteriaStructured({ task: 'design', brief: 'b', members: [], options: OPTIONS, hashes: { 'rankings/ana.yaml': 'x' }, texts: {} })
        .schema,
    ],
    [
      'criteria (brief)',
      criteriaStructured({ task: 'brief', brief: 'b', members: [], options: [], hashes: { 'comments/ana.md': 'x' }, texts: {} }).schema,
    ],
  ];
  for (const [name, schema] of schemas) {
    it(`${name}: every keyword is one the converter reads`, () => {
      assert.equal(unsupportedPart(schema), undefined);
    });
  }

  it('refuses, naming the place, what the converter would turn into a looser grammar', () => {
    const object = (properties: Record<string, unknown>) => ({
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    assert.match(unsupportedPart(object({ a: { anyOf: [{ type: 'string' }, { type: 'null' }] } })) ?? '', /^\$\.a: keyword "anyOf"/);
    assert.match(
      unsupportedPart(object({ a: { type: 'array', items: { type: 'string', pattern: '^x' } } })) ?? '',
      /^\$\.a\[\]: keyword "pattern"/,
    );
    assert.match(unsupportedPart(object({ a: { type: ['object', 'null'] } })) ?? '', /^\$\.a: type \["object","null"\]/);
    assert.match(unsupportedPart(object({ a: { description: 'no type' } })) ?? '', /^\$\.a: type undefined/);
    assert.match(unsupportedPart(object({ a: { type: 'string', format: 'uri' } })) ?? '', /format "uri"/);
    assert.equal(unsupportedPart(object({ a: { type: ['string', 'null'], enum: ['x', null] }, b: { type: 'integer' } })), undefined);
  });
});
