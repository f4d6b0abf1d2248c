/**
 * A failed request to a VS Code language model is classified in its backend, like the OpenAI backends' failures: each of
 * VS Code's error codes gets one kind and one sentence that names the model and what to do, and that sentence is what the
 * run says (describeError shows a backend's own sentence as it is).
 */
import * as assert from 'node:assert/strict';
import { languageModelError } from '../../../src/extension/llm/languageModelErrors';
import { describeError } from '../../../src/core/llm/errors';
import type { ModelRequestKind } from '../../../src/core/llm/backend';

const MODEL = 'Copilot GPT-4o';

describe('a failed request to a VS Code language model, classified', () => {
  const cases: { code: string | undefined; kind: ModelRequestKind; says: RegExp }[] = [
    {
      code: 'NoPermissions',
      kind: 'permission',
      says: /^VS Code did not give TeamFusion permission to use Copilot GPT-4o, so nothing was sent; .*"TeamFusion: Pick Chat Model"\.$/,
    },
    {
      code: 'NotFound',
      kind: 'not-found',
      says: /^Copilot GPT-4o is no longer available in VS Code; resume the run .*"TeamFusion: Pick Chat Model"\)\.$/,
    },
    {
      code: 'Blocked',
      kind: 'refused',
      says: /^Copilot GPT-4o refused the request \(blocked, for example by a quota\); resume the run later/,
    },
    { code: 'Unknown', kind: 'failed', says: /^Copilot GPT-4o failed: The provider broke off\. Resume the run to try again\.$/ },
    { code: undefined, kind: 'failed', says: /^Copilot GPT-4o failed: The provider broke off\. Resume the run to try again\.$/ },
  ];
  for (const c of cases) {
    it(`${c.code ?? 'an error that is not a LanguageModelError'}: kind ${c.kind}, one sentence naming the model`, () => {
      const cause = new Error('The provider\n  broke off. ');
      const err = languageModelError(MODEL, cause, c.code);
      assert.equal(err.kind, c.kind);
      assert.match(err.message, c.says);
      assert.equal(err.cause, cause, "VS Code's error is kept as the cause");
      assert.equal(describeError(err, "Ana Ruiz's proxy (round 1, turn 2)"), err.message, "the run says the backend's sentence as it is");
    });
  }
});
