/**
 * "Make Blind Re-rank Set…" inside the real extension host: a run made against the in-process mock OpenAI server on a
 * copy of the sample review in the workspace, then teamfusion.rerankRun with `{ reviewRoot, runId }`: the re-ranking
 * folder holds the final candidates, the Reviews tree lists it as a review of its own, and it refuses a second time.
 * With a chat model configured (teamfusion.chatModel), each proxy forecasts its designer's blind ranking and one
 * persona-free control forecasts too: runs/<id>/forecast.json (contract §7), sealed, outside the set the team sees.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { MockOpenAI } from '../support/openaiMock';
import { requestedJsonSchema, requestTexts } from '../support/openaiMock/autoResponder';
import type { RunRecord } from '../../src/core/record/record';
import { readRunRecord } from '../../src/core/record/store';
import { FORECAST_SCHEMA_NAME } from '../../src/core/forecast/forecastPrompts';
import { ForecastFileSchema, forecastDigest } from '../../src/core/forecast/forecastFile';
import { activateTeamFusion, copySampleTo, workspaceFolder, type TreeSnapshot } from './setup';
import { waitFor } from '../support/waitFor';

const KEY = `sk-teamfusion-rerank-it-${Date.now().toString(36)}`;
/** The chat model configured in VS Code for this suite (not the default, so its use is seen in the requests). */
const CHAT_MODEL = 'gpt-4.1-mini';

describe('rerank: Make Blind Re-rank Set in the extension host', function () {
  this.timeout(300_000);
  let mock: MockOpenAI;
  let review = '';
  const savedEnv = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
  const config = () => vscode.workspace.getConfiguration('teamfusion');

  before(async () => {
    await activateTeamFusion();
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    mock = await MockOpenAI.start();
    review = copySampleTo(join(workspaceFolder(), `rerank-it-${Date.now().toString(36)}`));
    await config().update('baseUrl', mock.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('chatModel', CHAT_MODEL, vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand<boolean>('teamfusion.setApiKey', KEY), true);
  });

  after(async () => {
    await vscode.commands.executeCommand('teamfusion.clearApiKey');
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('chatModel', undefined, vscode.ConfigurationTarget.Global);
    if (savedEnv.key !== undefined) process.env.OPENAI_API_KEY = savedEnv.key;
    if (savedEnv.base !== undefined) process.env.OPENAI_BASE_URL = savedEnv.base;
    await mock?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (review && process.env.TEAMFUSION_IT_KEEP !== '1') rmSync(review, { recursive: true, force: true });
  });

  it('makes runs/<id>/rerank from a completed run, lists it in the Reviews tree, and refuses a second time', async () => {
    const record = await vscode.commands.executeCommand<RunRecord | undefined>('teamfusion.runReview', {
      reviewRoot: review,
      iterations: 2,
      turns: 1,
    });
    assert.ok(record, 'runReview returned the record');
    assert.equal(record.status, 'completed', record.error);

    const dir = await vscode.commands.executeCommand<string | undefined>('teamfusion.rerankRun', { reviewRoot: review, runId: record.id });
    assert.equal(dir, join(review, 'runs', record.id, 'rerank'));
    // The blind set: the team's Borda top 3 + every remix, under letters; key.json says which is which.
    const key = JSON.parse(readFileSync(join(dir, 'key.json'), 'utf8')) as Record<string, { kind: string; id: string; file: string }>;
    const remixes = record.iterations.flatMap((it) => (it.remix ? [it.remix.id] : []));
    const letters = readdirSync(join(dir, 'options'))
      .map((n) => n.replace(/\.[^.]+$/, ''))
      .sort();
    assert.deepEqual(letters, Object.keys(key).sort());
    assert.ok(
      letters.every((l) => /^[A-Z]$/.test(l)),
      letters.join(),
    );
    assert.deepEqual(
      Object.values(key)
        .filter((e) => e.kind === 'remix')
        .map((e) => e.id)
        .sort(),
      [...remixes].sort(),
    );
    assert.equal(Object.values(key).filter((e) => e.kind === 'option').length, 3);
    assert.deepEqual(readdirSync(join(dir, 'rankings')), ['.gitkeep']);
    assert.equal(readFileSync(join(dir, 'brief.md'), 'utf8'), readFileSync(join(review, 'brief.md'), 'utf8'));
    assert.match(readFileSync(join(dir, 'review.yaml'), 'utf8'), /— re-rank\n/);

    // The Reviews tree lists the blind set under its run, as the run's re-rank step (issue 40), not as a review of its own.
    const name = review.split(/[\\/]/).pop() ?? '?';
    const pathOf = (r: TreeSnapshot): string => (r.description ?? '').split(' · ')[0] ?? '';
    const roots = await waitFor('the re-rank step in the Reviews tree', async () => {
      const snap = await vscode.commands.executeCommand<TreeSnapshot[]>('teamfusion.internal.describeReviewsTree', 4);
      const parent = snap.find((r) => r.contextValue === 'review' && pathOf(r).endsWith(name));
      const run = parent?.children?.find((c) => c.label === 'Runs')?.children?.find((c) => c.runId === record.id);
      return run?.children?.some((c) => c.contextValue === 'rerank') ? snap : undefined;
    });
    const parentNode = roots.find((r) => r.contextValue === 'review' && pathOf(r).endsWith(name));
    assert.ok(parentNode, 'the parent review is still listed');
    const runNode = parentNode.children?.find((c) => c.label === 'Runs')?.children?.find((c) => c.runId === record.id);
    assert.deepEqual(
      runNode?.children?.map((c) => [c.label, c.contextValue]),
      [[`Blind re-rank: 0 of ${parentNode.children?.find((c) => c.label === 'Designers')?.description} ranked`, 'rerank']],
    );
    // Nothing under runs/ is listed as a review: the blind set is the run's step.
    assert.deepEqual(roots.filter((r) => pathOf(r).includes(`${name}/runs/`)).map(pathOf), [], 'no review inside runs/');

    // The panel of the new review is open.
    await waitFor('the re-ranking panel', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.label.includes('re-rank')),
    );

    // The forecasts: one per designer of the run and one control, each a blind ranking of the set's letters, sealed.
    const forecast = ForecastFileSchema.parse(JSON.parse(readFileSync(join(review, 'runs', record.id, 'forecast.json'), 'utf8')));
    assert.equal(forecast.runId, record.id);
    assert.equal(forecast.task, 'design');
    assert.deepEqual([...forecast.letters].sort(), letters);
    const designers = readdirSync(join(review, 'rankings'))
      .map((n) => n.replace(/\.[^.]+$/, ''))
      .sort();
    assert.deepEqual(
      forecast.forecasts
        .filter((f) => f.kind === 'persona')
        .map((f) => f.designer)
        .sort(),
      designers,
      'a forecast per designer',
    );
    assert.deepEqual(
      forecast.forecasts.filter((f) => f.kind === 'control').map((f) => f.designer),
      [null],
      'one control, of nobody',
    );
    for (const f of forecast.forecasts) {
      assert.equal(f.failed, undefined, `${f.designer ?? 'the control'}: ${f.failed}`);
      assert.deepEqual([...f.ranking!].sort(), letters, 'every letter once');
    }
    const after = await readRunRecord(review, record.id);
    assert.equal(after.forecastSha256, forecast.sha256, 'run.json keeps the seal');
    assert.equal(forecastDigest(forecast), forecast.sha256, 'the file is as sealed');
    const prompts = new Map(after.prompts.map((p) => [p.id, p]));
    for (const f of forecast.forecasts) {
      const p = prompts.get(f.promptId ?? '');
      assert.ok(p, `${f.designer ?? 'the control'}'s request is recorded (${f.promptId})`);
      assert.deepEqual([p.kind, p.speaker, p.model], ['forecast', f.designer ?? undefined, CHAT_MODEL]);
    }
    // Sent to the configured model, one request each; the control's carries no persona.
    const sent = mock.requests.filter((r) => r.route === 'chat' && requestedJsonSchema(r.body)?.name === FORECAST_SCHEMA_NAME);
    assert.equal(sent.length, designers.length + 1);
    assert.ok(
      sent.every((r) => (r.body as { model?: string }).model === CHAT_MODEL),
      'the configured chat model',
    );
    const names = ['Ana Ruiz', 'Ben Okafor', 'Chen Wei', 'Dina Haddad'];
    const persona = (r: (typeof sent)[number]) => names.filter((n) => requestTexts(r.body).join('\n').includes(n));
    assert.equal(sent.filter((r) => persona(r).length === 0).length, 1, 'exactly one request (the control) names no designer');
    assert.deepEqual(mock.specErrors(), [], 'every request valid against the OpenAPI spec');
    // Sealed: nothing of the forecasts in the set the team re-ranks.
    const setFiles = readdirSync(dir, { recursive: true }).map(String);
    assert.ok(!setFiles.some((f) => /forecast/i.test(f)), setFiles.join());

    const again = await vscode.commands.executeCommand<string | undefined>('teamfusion.rerankRun', {
      reviewRoot: review,
      runId: record.id,
    });
    assert.equal(again, undefined, 'a second re-ranking of the same run is refused');
    assert.deepEqual(readdirSync(join(dir, 'rankings')), ['.gitkeep'], 'the existing folder is left alone');
  });
});
