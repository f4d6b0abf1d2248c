// The e2e suites' shared set-up (test/e2e/support/suite.ts): what it writes on disk and how it waits, without a browser.
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import {
  SAMPLE,
  assertNoWebviewErrors,
  copySample,
  e2eSuite,
  makeLargeReview,
  patchReviewYaml,
  readRunJson,
  runIds,
  streamProxyTurns,
  until,
  untilRun,
  webviewErrors,
} from '../../e2e/support/suite';
import { MockOpenAI } from '../../support/openaiMock';

/** Just enough of a page for the waits: its clock. */
const fakePage = { waitForTimeout: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) } as unknown as Page;

describe('e2e support: the shared set-up of the e2e suites', function () {
  this.timeout(60_000);
  let tmp = '';
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-e2e-support-'));
  });
  afterEach(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('copySample copies the sample without runs and merges settings over its review.yaml', async () => {
    const plain = await copySample(tmp, 'plain');
    assert.equal(plain, path.join(tmp, 'plain'));
    assert.equal(await fs.readFile(path.join(plain, 'review.yaml'), 'utf8'), await fs.readFile(path.join(SAMPLE, 'review.yaml'), 'utf8'));
    assert.deepEqual((await fs.readdir(path.join(plain, 'rankings'))).sort(), (await fs.readdir(path.join(SAMPLE, 'rankings'))).sort());
    assert.equal(existsSync(path.join(plain, 'runs')), false);

    const tuned = await copySample(tmp, 'tuned', { title: 'Tuned', iterations: 2 });
    const sample = parseYaml(await fs.readFile(path.join(SAMPLE, 'review.yaml'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(parseYaml(await fs.readFile(path.join(tuned, 'review.yaml'), 'utf8')), { ...sample, title: 'Tuned', iterations: 2 });
    await patchReviewYaml(tuned, { iterations: 'many' });
    assert.equal((parseYaml(await fs.readFile(path.join(tuned, 'review.yaml'), 'utf8')) as { iterations: unknown }).iterations, 'many');
  });

  it('makeLargeReview writes n options and m full rankings, the same every time', async () => {
    await makeLargeReview(path.join(tmp, 'a'), 5, 3);
    await makeLargeReview(path.join(tmp, 'b'), 5, 3);
    assert.deepEqual((await fs.readdir(path.join(tmp, 'a', 'options'))).sort(), ['1.png', '2.png', '3.png', '4.png', '5.png']);
    const rankings = (await fs.readdir(path.join(tmp, 'a', 'rankings'))).sort();
    assert.deepEqual(rankings, ['d1.yaml', 'd2.yaml', 'd3.yaml']);
    for (const f of rankings) {
      const text = await fs.readFile(path.join(tmp, 'a', 'rankings', f), 'utf8');
      assert.equal(text, await fs.readFile(path.join(tmp, 'b', 'rankings', f), 'utf8'), 'seeded: the same review every time');
      const r = parseYaml(text) as { ranking: { option: string; rank: number }[] };
      assert.deepEqual(r.ranking.map((e) => e.option).sort(), ['1', '2', '3', '4', '5']);
      assert.deepEqual(
        r.ranking.map((e) => e.rank),
        [1, 2, 3, 4, 5],
      );
    }
    assert.match(await fs.readFile(path.join(tmp, 'a', 'review.yaml'), 'utf8'), /^title: Large review$/m);
  });

  it('runIds and readRunJson: sorted run folders, a half-written run.json is not there yet', async () => {
    const review = path.join(tmp, 'r');
    assert.deepEqual(await runIds(review), []);
    await fs.mkdir(path.join(review, 'runs', '2026-02'), { recursive: true });
    await fs.mkdir(path.join(review, 'runs', '2026-01'), { recursive: true });
    assert.deepEqual(await runIds(review), ['2026-01', '2026-02']);
    assert.equal(await readRunJson(review, '2026-01'), undefined);
    await fs.writeFile(path.join(review, 'runs', '2026-01', 'run.json'), '{"status": "comp');
    assert.equal(await readRunJson(review, '2026-01'), undefined);
    await fs.writeFile(path.join(review, 'runs', '2026-01', 'run.json'), '{"status":"completed","task":"brief"}');
    assert.deepEqual(await readRunJson(review, '2026-01'), { status: 'completed', task: 'brief' });
  });

  it('until waits on the condition (a throwing check counts as not yet) and names what it waited for when stuck', async () => {
    let calls = 0;
    const v = await until(
      fakePage,
      'the third call',
      async () => {
        calls++;
        if (calls === 1) throw new Error('not ready');
        return calls >= 3 ? `call ${calls}` : undefined;
      },
      10_000,
      5,
    );
    assert.equal(v, 'call 3');
    await assert.rejects(
      until(fakePage, 'something that never comes', async () => false, 30, 5),
      /Timed out after 30 ms waiting for something that never comes/,
    );
  });

  it('untilRun finds the run with the status (and task) asked for', async () => {
    const review = path.join(tmp, 'r');
    await fs.mkdir(path.join(review, 'runs', 'a'), { recursive: true });
    await fs.mkdir(path.join(review, 'runs', 'b'), { recursive: true });
    await fs.writeFile(path.join(review, 'runs', 'a', 'run.json'), '{"status":"completed","task":"rank"}');
    await fs.writeFile(path.join(review, 'runs', 'b', 'run.json'), '{"status":"running","task":"brief"}');
    const later = setTimeout(
      () => void fs.writeFile(path.join(review, 'runs', 'b', 'run.json'), '{"status":"completed","task":"brief"}'),
      50,
    );
    try {
      assert.equal(await untilRun(fakePage, review, 'completed', { task: 'brief', ceilingMs: 10_000 }), 'b');
      assert.equal(await untilRun(fakePage, review, 'completed'), 'a');
    } finally {
      clearTimeout(later);
    }
  });

  it("webviewErrors keeps the webviews' console errors only", () => {
    const csp =
      "Refused to load the image 'https://evil.example/x.png' because it violates the following Content Security Policy directive";
    const errors = [
      'https://x/vscode-resource/panel.js: boom',
      'https://x/workbench.js: offline',
      'webview frame: oops',
      'pageerror: a.vscode-cdn.net',
      csp,
    ];
    assert.deepEqual(webviewErrors(errors), [
      'https://x/vscode-resource/panel.js: boom',
      'webview frame: oops',
      'pageerror: a.vscode-cdn.net',
      csp,
    ]);
    assert.doesNotThrow(() => assertNoWebviewErrors({ consoleErrors: ['https://x/workbench.js: offline'] }));
    assert.throws(
      () => assertNoWebviewErrors({ consoleErrors: ['webview frame: oops'] }),
      /console errors in the webview:\nwebview frame: oops/,
    );
  });

  it('streamProxyTurns streams proxy turns slowly and leaves other requests to the mock', async () => {
    const mock = await MockOpenAI.start();
    try {
      streamProxyTurns(mock, 7);
      // The mock keeps its fallback in a private field; asked directly, it answers as the e2e suites need.
      const fallback = (mock as unknown as { fallback: (r: unknown) => unknown }).fallback;
      const proxy = fallback({ route: 'chat', body: { stream: true, messages: [{ role: 'user', content: 'hi' }] } }) as {
        kind: string;
        chunkDelayMs: number;
      };
      assert.deepEqual([proxy.kind, proxy.chunkDelayMs], ['chat', 7]);
      assert.equal(fallback({ route: 'chat', body: { stream: true, response_format: { type: 'json_object' } } }), undefined);
      assert.equal(fallback({ route: 'image' }), undefined);
      // Through the wire: a streamed chat answers as SSE.
      const res = await fetch(`${mock.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
        body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Which image?' }] }),
      });
      assert.equal(res.status, 200);
      assert.match(await res.text(), /^data: /m);
    } finally {
      await mock.close();
    }
  });

  describe('e2eSuite', () => {
    const s = e2eSuite('unit', { checkWebviewErrors: false });
    let made = '';

    it('says which step comes first when a part is asked for before it is set up', () => {
      assert.throws(() => s.ws, /e2eSuite\(unit\): makeWorkspace\(\) first/);
      assert.throws(() => s.mock, /startMock\(\) first/);
      assert.throws(() => s.page, /startWorkbench\(\) first/);
      assert.equal(s.running, false);
    });

    it('makes the workspace folder and starts the mock', async () => {
      made = await s.makeWorkspace();
      assert.equal(s.ws, made);
      assert.match(path.basename(made), /^tf-e2e-unit-/);
      assert.ok(existsSync(made));
      const mock = await s.startMock();
      assert.equal(s.mock, mock);
      assert.match(mock.baseURL, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    });

    after(() => {
      // Registered after e2eSuite's own after hook, so it runs once the suite has cleaned up.
      assert.equal(existsSync(made), false, 'the workspace is removed after the suite');
    });
  });
});
