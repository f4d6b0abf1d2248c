/**
 * A chat backend that is not billed per token (a VS Code language model: covered by the user's plan), behind the engine's
 * ChatBackend seam: a run counts its tokens but prices only the image edits, and says so in result.md; discussion coding
 * through it needs no OpenAI client and adds no cost.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { codeDiscussion } from '../../../src/core/analysis';
import type { ChatAnswer, ChatBackend, ChatRequest } from '../../../src/core/llm/backend';
import { OpenAIChatBackend, OpenAIImageBackend } from '../../../src/core/llm/openaiBackend';
import { estimateCost } from '../../../src/core/llm/pricing';
import { startRun } from '../../../src/core/run/session';
import { RUN_ID, reviewWithRun, scriptedCoder } from '../analysis/fixtures';
import { makeReview, makeTempDir } from './fixtures';
import { clientFor, mockSuite } from './helpers';

/** Answers through the mock (so the engine gets real answers) but presents itself as a VS Code model. */
class PlanCoveredChat implements ChatBackend {
  readonly provider = 'vscode' as const;
  readonly host = undefined;
  readonly acceptsImages = true;
  readonly priced = false;
  calls = 0;
  constructor(private readonly inner: OpenAIChatBackend) {}
  async chat(req: ChatRequest): Promise<ChatAnswer> {
    this.calls++;
    return this.inner.chat(req);
  }
}

describe('a chat backend covered by the plan (VS Code model)', function () {
  this.timeout(60_000);
  const suite = mockSuite({ checkSpec: false });

  it('a run counts its tokens, prices only the image edits and says "covered by your plan" in result.md', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const chat = new PlanCoveredChat(new OpenAIChatBackend(clientFor(suite.mock)));
    const record = await startRun({
      reviewRoot: root,
      chat,
      images: new OpenAIImageBackend(clientFor(suite.mock)),
      cacheDir: await makeTempDir('tf-cache-'),
      settings: { iterations: 2, turnsPerAgent: 1, chatModel: 'gpt-4o' },
    });
    assert.equal(record.status, 'completed', record.error);
    assert.ok(chat.calls > 0);
    assert.equal(record.settings.chatProvider, 'vscode');
    assert.ok(record.usage.inputTokens > 0 && record.usage.outputTokens > 0, 'tokens are counted');
    assert.equal(record.usage.images, 1);
    const imagesOnly = estimateCost({ ...record.usage, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 }, record.settings);
    assert.equal(record.usage.costUsd, imagesOnly, 'gpt-4o is in the price table, yet its tokens cost nothing here');
    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.match(result, /\| chat covered by your plan \(VS Code model\); images \$\d+\.\d{4} \|/);
  });

  it('discussion coding goes through the backend alone (no client) and adds no cost', async () => {
    const { root } = await reviewWithRun();
    scriptedCoder(suite.mock);
    const chat = new PlanCoveredChat(new OpenAIChatBackend(clientFor(suite.mock)));
    const r = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, chat, model: 'gpt-4o' });
    assert.equal(r.state, 'coded');
    assert.ok(chat.calls > 0 && r.analysis.bales.length > 0);
    assert.equal(r.analysis.model, 'gpt-4o');
    assert.ok(r.analysis.usage.inputTokens > 0);
    assert.equal(r.analysis.usage.costUsd, 0, 'covered by the plan');
  });
});
