/**
 * A run against the bundled scripted server is marked as such (contract §7): run.json `scripted: true`, kept through a
 * refinement and a resume (even one against a real endpoint), and result.md / transcript.md open with the banner after
 * every rewrite. A run against a server that does not name itself is never marked.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { readRunRecord, refineRun, resumeRun, startRun } from '../../../src/core/run/session';
import { SCRIPTED_BANNER } from '../../../src/core/run/deliverables/deliverables';
import { SCRIPTED_HEADER } from '../../../src/core/llm/scripted';
import { makeReview, makeTempDir } from '../run/fixtures';
import { clientFor } from '../run/helpers';
import { OpenAIChatBackend, OpenAIImageBackend } from '../../../src/core/llm/openaiBackend';
import { anyScripted } from '../../../src/core/record/endpoints';
import { compareRun } from '../../../src/core/evaluation/compare/compare';
import { scriptedRunSentences } from '../../../src/core/evaluation/checks/scripted';

async function deliverables(root: string, id: string): Promise<string[]> {
  return Promise.all(['result.md', 'transcript.md'].map((f) => fs.readFile(path.join(root, 'runs', id, f), 'utf8')));
}

describe('scripted runs are labelled in every record', function () {
  this.timeout(120_000);
  let scripted: MockOpenAI;
  let real: MockOpenAI;
  let cacheDir: string;
  before(async () => {
    scripted = await MockOpenAI.start({ scripted: true });
    real = await MockOpenAI.start();
    cacheDir = await makeTempDir('tf-cache-');
  });
  after(async () => {
    await scripted.close();
    await real.close();
  });

  it('the scripted server names itself in every answer; a server playing a real endpoint does not', async () => {
    const a = await fetch(`${scripted.baseURL}/models`);
    const b = await fetch(`${real.baseURL}/models`);
    assert.equal(a.headers.get(SCRIPTED_HEADER), 'true');
    assert.equal(b.headers.get(SCRIPTED_HEADER), null);
  });

  it('run.json says scripted: true, and keeps it with the banner through a refinement', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const first = await startRun({
      reviewRoot: root,
      client: clientFor(scripted),
      cacheDir,
      settings: { turnsPerAgent: 1, iterations: 2 },
    });
    assert.equal(first.status, 'completed', first.error);
    assert.equal((await readRunRecord(root, first.id)).scripted, true);
    for (const text of await deliverables(root, first.id)) assert.ok(text.startsWith(`${SCRIPTED_BANNER}\n`), text.slice(0, 200));

    const refined = await refineRun({ reviewRoot: root, runId: first.id, client: clientFor(scripted), cacheDir, feedback: 'warmer' });
    assert.equal(refined.status, 'completed', refined.error);
    assert.equal(refined.iterations.length, 4);
    assert.equal((await readRunRecord(root, first.id)).scripted, true);
    for (const text of await deliverables(root, first.id)) {
      assert.ok(text.startsWith(`${SCRIPTED_BANNER}\n`), text.slice(0, 200));
      assert.equal(text.split(SCRIPTED_BANNER).length, 2, 'the banner is said once');
    }
  });

  it('run.json endpoints say which part came from where; scripted: true only when every part was scripted', async () => {
    const all = await startRun({
      reviewRoot: await makeReview({ options: 4, designers: 3 }),
      client: clientFor(scripted),
      cacheDir,
      settings: { turnsPerAgent: 1, iterations: 2 },
    });
    assert.equal(all.status, 'completed', all.error);
    const host = new URL(scripted.baseURL).host;
    assert.deepEqual(all.endpoints, { chat: { host, scripted: true }, images: { host, scripted: true } });
    assert.equal(all.scripted, true);

    // Chat from a real endpoint, images from the scripted server: not scripted, said part by part, out of every total.
    const root = await makeReview({ options: 4, designers: 3 });
    const mixed = await startRun({
      reviewRoot: root,
      chat: new OpenAIChatBackend(clientFor(real)),
      images: new OpenAIImageBackend(clientFor(scripted)),
      cacheDir,
      settings: { turnsPerAgent: 1, iterations: 2 },
    });
    assert.equal(mixed.status, 'completed', mixed.error);
    const raw = JSON.parse(await fs.readFile(path.join(root, 'runs', mixed.id, 'run.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(raw.endpoints, { chat: { host: new URL(real.baseURL).host, scripted: false }, images: { host, scripted: true } });
    assert.equal('scripted' in raw, false);
    for (const text of await deliverables(root, mixed.id)) {
      assert.ok(!text.includes(SCRIPTED_BANNER));
      assert.ok(
        text.startsWith(
          `> **Partly scripted run.** Of its parts: its chat answers from the model at ${new URL(real.baseURL).host}; its images from TeamFusion's bundled scripted server, not a model.\n`,
        ),
        text.slice(0, 300),
      );
    }
    assert.equal(anyScripted(await readRunRecord(root, mixed.id)), true, 'left out of every total like a scripted run');
    const compared = await compareRun(root, mixed.id);
    assert.equal(compared.scripted, true);
    assert.match(
      compared.scriptedParts ?? '',
      /^Partly scripted run: its chat answers from the model at .+; its images from TeamFusion's bundled scripted server, not a model\.$/,
    );
    assert.match(
      scriptedRunSentences(compared)[0]!,
      /^Partly scripted run: .* So these measures and its cost are not a team's and are left out of every total\.$/,
    );
  });

  it('a scripted run resumed against a real endpoint keeps its chat part scripted: partly scripted, out of every total', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const controller = new AbortController();
    scripted.setFallback((req) => {
      if (req.route === 'chat' && scripted.requests.filter((r) => r.route === 'chat').length >= 2) controller.abort();
      return undefined;
    });
    const stopped = await startRun({
      reviewRoot: root,
      client: clientFor(scripted),
      cacheDir,
      signal: controller.signal,
      settings: { turnsPerAgent: 1, iterations: 2 },
    });
    scripted.setFallback(undefined);
    assert.equal(stopped.status, 'cancelled');
    assert.equal((await readRunRecord(root, stopped.id)).scripted, true);
    const resumed = await resumeRun({ reviewRoot: root, runId: stopped.id, client: clientFor(real), cacheDir });
    assert.equal(resumed.status, 'completed', resumed.error);
    const after = await readRunRecord(root, stopped.id);
    assert.equal(after.endpoints?.chat.scripted, true, 'the canned turns stay canned');
    assert.equal(after.endpoints?.images?.scripted, false);
    assert.equal(after.scripted, undefined);
    assert.equal(anyScripted(after), true);
    for (const text of await deliverables(root, stopped.id)) assert.ok(text.startsWith('> **Partly scripted run.**'), text.slice(0, 200));
  });

  it('a run against a server that does not name itself has no scripted mark and no banner', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const record = await startRun({ reviewRoot: root, client: clientFor(real), cacheDir, settings: { turnsPerAgent: 1, iterations: 2 } });
    assert.equal(record.status, 'completed', record.error);
    const raw = JSON.parse(await fs.readFile(path.join(root, 'runs', record.id, 'run.json'), 'utf8')) as Record<string, unknown>;
    assert.equal('scripted' in raw, false);
    for (const text of await deliverables(root, record.id)) assert.ok(!text.includes('Scripted run'));
  });
});
