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
import { SCRIPTED_BANNER } from '../../../src/core/run/deliverables';
import { SCRIPTED_HEADER } from '../../../src/core/llm/scripted';
import { makeReview, makeTempDir } from '../run/fixtures';
import { clientFor } from '../run/helpers';

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
    const first = await startRun({ reviewRoot: root, client: clientFor(scripted), cacheDir, settings: { turnsPerAgent: 1, iterations: 2 } });
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

  it('a scripted run resumed against a real endpoint stays scripted', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const controller = new AbortController();
    scripted.setFallback((req) => {
      if (req.route === 'chat' && scripted.requests.filter((r) => r.route === 'chat').length >= 2) controller.abort();
      return undefined;
    });
    const stopped = await startRun({ reviewRoot: root, client: clientFor(scripted), cacheDir, signal: controller.signal, settings: { turnsPerAgent: 1, iterations: 2 } });
    scripted.setFallback(undefined);
    assert.equal(stopped.status, 'cancelled');
    assert.equal((await readRunRecord(root, stopped.id)).scripted, true);
    const resumed = await resumeRun({ reviewRoot: root, runId: stopped.id, client: clientFor(real), cacheDir });
    assert.equal(resumed.status, 'completed', resumed.error);
    assert.equal((await readRunRecord(root, stopped.id)).scripted, true);
    for (const text of await deliverables(root, stopped.id)) assert.ok(text.startsWith(`${SCRIPTED_BANNER}\n`));
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
