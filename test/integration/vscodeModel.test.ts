/**
 * `teamfusion.chatProvider: "vscode"` inside the real extension host: a test extension (test/lmProvider, loaded beside
 * TeamFusion) registers a scripted language model with vscode.lm.registerLanguageModelChatProvider; a run of the sample
 * review talks only to it (images as LanguageModelDataPart image parts, tokens counted by the model's counter, chat cost
 * covered by the plan), the remixes go to the scripted OpenAI server as the image endpoint with its own key, and coding the
 * discussion goes through the same model. Without any model, nothing is sent.
 */
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { MockOpenAI } from '../support/openaiMock';
import type { RunRecord } from '../../src/core/record/record';
import type { ScriptedLmApi } from '../lmProvider/extension';
import { waitFor } from '../support/waitFor';

const SAMPLE = 'lumen-perfume';
const IMAGE_KEY = `sk-teamfusion-image-it-${Date.now().toString(36)}-0123456789`;
const VISION = { id: 'scripted-vision', name: 'Scripted Vision', imageInput: true };
const OTHER = { id: 'scripted-vision-2', name: 'Scripted Vision Two', imageInput: true };
const LM_EXTENSION = 'teamfusion-test.scripted-language-model';

function sampleDir(): string {
  const ws = process.env.TEAMFUSION_IT_WORKSPACE;
  if (ws && existsSync(join(ws, SAMPLE, 'brief.md'))) return join(ws, SAMPLE);
  const repo = process.env.TEAMFUSION_REPO ?? resolve(__dirname, '..', '..', '..');
  return join(repo, 'samples', SAMPLE);
}

describe('TeamFusion on a VS Code language model (chatProvider "vscode")', function () {
  this.timeout(300_000);
  let lm: ScriptedLmApi;
  let mock: MockOpenAI;
  let scratch: string;
  let review: string;
  const config = () => vscode.workspace.getConfiguration('teamfusion');
  const savedEnv = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL, imageKey: process.env.TEAMFUSION_IMAGE_API_KEY };

  before(async () => {
    const tf = vscode.extensions.getExtension('teamfusion.teamfusion');
    assert.ok(tf, 'TeamFusion is loaded');
    await tf.activate();
    const ext = vscode.extensions.getExtension<ScriptedLmApi>(LM_EXTENSION);
    assert.ok(ext, 'the scripted language model extension is loaded beside TeamFusion');
    lm = await ext.activate();
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    delete process.env.TEAMFUSION_IMAGE_API_KEY;
    await vscode.commands.executeCommand('teamfusion.clearApiKey');
    mock = await MockOpenAI.start();
    scratch = mkdtempSync(join(tmpdir(), 'teamfusion-lm-it-'));
    review = join(scratch, SAMPLE);
    const sample = sampleDir();
    cpSync(sample, review, { recursive: true, filter: (src) => !src.startsWith(join(sample, 'runs')) });
    await config().update('chatProvider', 'vscode', vscode.ConfigurationTarget.Global);
    await config().update('imageBaseUrl', mock.baseURL, vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand<boolean>('teamfusion.setImageApiKey', IMAGE_KEY), true);
  });

  after(async () => {
    lm?.setModels([]);
    await vscode.commands.executeCommand('teamfusion.clearImageApiKey');
    await config().update('chatProvider', undefined, vscode.ConfigurationTarget.Global);
    await config().update('imageBaseUrl', undefined, vscode.ConfigurationTarget.Global);
    if (savedEnv.key !== undefined) process.env.OPENAI_API_KEY = savedEnv.key;
    if (savedEnv.base !== undefined) process.env.OPENAI_BASE_URL = savedEnv.base;
    if (savedEnv.imageKey !== undefined) process.env.TEAMFUSION_IMAGE_API_KEY = savedEnv.imageKey;
    await mock?.close();
    if (scratch && process.env.TEAMFUSION_IT_KEEP !== '1') rmSync(scratch, { recursive: true, force: true });
  });

  it('without any model and without a key, nothing is sent and no run folder is made', async () => {
    lm.setModels([]);
    await waitFor(
      'VS Code to have no scripted model',
      async () => (await vscode.lm.selectChatModels({ vendor: 'teamfusion-test' })).length === 0,
    );
    lm.reset();
    mock.reset();
    const record = await vscode.commands.executeCommand<RunRecord | undefined>('teamfusion.runReview', {
      reviewRoot: review,
      iterations: 2,
      turns: 1,
    });
    assert.equal(record, undefined, 'no run without a model');
    assert.equal(existsSync(join(review, 'runs')), false, 'no run folder');
    assert.equal(lm.received.length, 0);
    assert.equal(mock.requests.length, 0, 'nothing reached the image endpoint either');
  });

  it('runs the sample through the registered model: images as data parts, tokens counted, remixes on the image endpoint', async () => {
    lm.setModels([VISION]);
    const [model] = await waitFor('VS Code to offer the scripted model', async () => {
      const found = await vscode.lm.selectChatModels({ vendor: 'teamfusion-test' });
      return found.length ? found : undefined;
    });
    assert.equal(model!.id, VISION.id);
    assert.equal(
      (model as unknown as { capabilities?: { supportsImageToText?: boolean } }).capabilities?.supportsImageToText,
      true,
      'VS Code reports the model reads images',
    );
    lm.reset();
    mock.reset();
    const record = await vscode.commands.executeCommand<RunRecord | undefined>('teamfusion.runReview', {
      reviewRoot: review,
      iterations: 2,
      turns: 1,
    });
    assert.ok(record, 'runReview returned the record');
    assert.equal(record.status, 'completed', record.error);
    const onDisk = JSON.parse(readFileSync(join(review, 'runs', record.id, 'run.json'), 'utf8')) as RunRecord;
    assert.equal(onDisk.status, 'completed');
    assert.equal(onDisk.settings.chatProvider, 'vscode', 'the record says the chat ran on a VS Code model');
    assert.equal(onDisk.settings.chatModel, VISION.id, 'the picked model is recorded');

    // The chat went to the language model only; the image endpoint saw the edits (and its free model list), with its own key.
    assert.equal(mock.requests.filter((r) => r.route === 'chat').length, 0, 'no chat request reached the OpenAI endpoint');
    const edits = mock.requests.filter((r) => r.route === 'edit');
    assert.ok(edits.length >= 1, 'the remix was made on the image endpoint');
    for (const r of mock.requests) assert.equal(r.headers.authorization, `Bearer ${IMAGE_KEY}`, `${r.path} carries the image key`);
    assert.deepEqual(mock.specErrors(), []);

    assert.ok(lm.received.length >= 4, `the model answered the discussion (${lm.received.length} requests)`);
    assert.ok(lm.received.every((r) => r.model === VISION.id && !r.error));
    assert.ok(
      lm.received.some((r) => r.structured),
      'the remix agent asked for JSON in the prompt',
    );
    const withImages = lm.received.filter((r) => r.messages.some((m) => m.parts.some((p) => p.kind === 'data')));
    assert.ok(withImages.length >= 1, 'images were sent');
    for (const r of withImages) {
      for (const p of r.messages.flatMap((m) => m.parts).filter((x) => x.kind === 'data')) {
        assert.match(p.mime ?? '', /^image\/(png|jpeg|webp)$/, 'an image data part');
        assert.ok((p.bytes ?? 0) > 100, 'with the image bytes');
        assert.equal(p.mime, `image/${p.signature}`, 'the MIME type matches the bytes');
      }
    }
    const dataParts = lm.received.flatMap((r) => r.messages.flatMap((m) => m.parts)).filter((p) => p.kind === 'data');
    console.log(
      `    (the model got ${lm.received.length} requests, ${lm.received.filter((r) => r.structured).length} asking for JSON, ` +
        `${dataParts.length} image data parts [${[...new Set(dataParts.map((p) => p.mime))].join(', ')}], ${lm.tokenCounts} token counts; ` +
        `initiator ${JSON.stringify(lm.received[0]?.initiator)}, justification ${JSON.stringify(lm.received[0]?.justification)}; ` +
        `tokens in ${onDisk.usage.inputTokens}, out ${onDisk.usage.outputTokens}; image endpoint ${mock.requests.map((r) => r.route).join(', ')})`,
    );
    const initiators = new Set(lm.received.map((r) => r.initiator).filter(Boolean));
    if (initiators.size) assert.deepEqual([...initiators], ['teamfusion.teamfusion'], 'VS Code names TeamFusion as the caller');

    assert.ok(lm.tokenCounts > 0, "usage was counted with the model's token counter");
    assert.ok(onDisk.usage.inputTokens > 0 && onDisk.usage.outputTokens > 0, 'tokens are recorded');
    assert.equal(onDisk.usage.cachedInputTokens, 0);
    const result = readFileSync(join(review, 'runs', record.id, 'result.md'), 'utf8');
    assert.match(result, /covered by your plan/, 'result.md says the chat is covered by the plan');
  });

  it('codes the discussion through the same model (no chat request to any endpoint)', async () => {
    const ids = (await import('node:fs')).readdirSync(join(review, 'runs')).sort();
    const runId = ids[ids.length - 1]!;
    lm.reset();
    mock.reset();
    const result = await vscode.commands.executeCommand<
      { state: string; analysis: { model: string; bales: unknown[]; usage: { costUsd?: number } } } | undefined
    >('teamfusion.codeDiscussion', { reviewRoot: review, runId });
    assert.ok(result, 'the coding ran');
    assert.equal(result.state, 'coded');
    assert.ok(result.analysis.bales.length > 0);
    assert.equal(result.analysis.model, VISION.id, 'analysis.json names the VS Code model');
    assert.ok(lm.received.length >= 1 && lm.received.every((r) => r.structured), 'coding requests went to the language model');
    assert.equal(mock.requests.filter((r) => r.route === 'chat').length, 0, 'none to the OpenAI endpoint');
    assert.ok(existsSync(join(review, 'runs', runId, 'analysis.json')));
  });

  it('a model withdrawn mid-run fails the run in one sentence; the run resumes on another model (quick pick), each prompt naming its model', async () => {
    lm.setModels([VISION, OTHER]);
    await waitFor(
      'both scripted models',
      async () => (await vscode.lm.selectChatModels({ vendor: 'teamfusion-test' })).length === 2 || undefined,
    );
    lm.reset();
    mock.reset();
    // The fifth request (into the round-robin, after the four first assessments) withdraws the model the run uses.
    lm.setResponder(() => {
      if (lm.received.length === 5) lm.setModels([OTHER]);
      return undefined;
    });
    let failed: RunRecord | undefined;
    try {
      failed = await vscode.commands.executeCommand<RunRecord | undefined>('teamfusion.runReview', {
        reviewRoot: review,
        iterations: 2,
        turns: 1,
      });
    } finally {
      lm.setResponder(undefined);
    }
    assert.ok(failed, 'the run returned its record');
    assert.equal(failed.status, 'failed');
    assert.equal(failed.settings.chatModel, VISION.id);
    assert.match(failed.error ?? '', /Scripted Vision \(teamfusion-test\) is no longer available in VS Code; resume the run/);
    assert.ok(!/\n/.test(failed.error ?? ''), `one line: ${failed.error}`);

    // Resume: the remembered model is gone, so VS Code's models are offered in a quick pick; the test accepts the first
    // (the only one left) the way a user presses Enter.
    const resumed = vscode.commands.executeCommand<RunRecord | undefined>('teamfusion.runReview', {
      reviewRoot: review,
      resume: failed.id,
    });
    await waitFor('the quick pick of models, accepted', async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return lm.received.some((r) => r.model === OTHER.id) || undefined;
    });
    const record = await resumed;
    assert.ok(record);
    assert.equal(record.id, failed.id, 'the same run');
    assert.equal(record.status, 'completed', record.error);
    const models = new Set(record.prompts.filter((p) => p.kind !== 'image-edit').map((p) => p.model));
    assert.deepEqual([...models].sort(), [VISION.id, OTHER.id].sort(), 'every prompt names the model that answered it');
    assert.equal(mock.requests.filter((r) => r.route === 'chat').length, 0);
  });
});
