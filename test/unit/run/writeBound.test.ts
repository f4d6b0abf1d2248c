/**
 * Paid requests before a write bound to be refused (issue 29 item 8), through the built CLI against the scripted server:
 * `judge --force`, `code-discussion --force` and the resume of a run with a committed link at a round's folder check
 * every output they will write before sending anything — one sentence naming the file, exit 1, nothing sent, nothing
 * written, the run still readable.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { readRunRecord } from '../../../src/core/record/store';
import { makeBriefRunReview, makeTempDir } from './fixtures';
import { completedBriefRun, mockSuite, startCli } from './helpers';

describe('outputs checked before anything is sent (command line)', function () {
  this.timeout(120_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  /** A folder outside the review, and what it holds (to show nothing was written there). */
  async function outsideFolder(): Promise<{ dir: string; contents: () => Promise<string[]> }> {
    const dir = await makeTempDir('tf-out-');
    return { dir, contents: async () => (await fs.readdir(dir)).sort() };
  }

  it('judge --force and code-discussion --force with a link or a folder at their output: refused before a request, one sentence', async function () {
    if (process.platform === 'win32') this.skip();
    const { root, id } = await completedBriefRun(suite.env, 2);
    const outside = await outsideFolder();
    const sent = suite.mock.requests.length;
    const runDir = path.join(root, 'runs', id);
    await fs.symlink(path.join(outside.dir, 'judge.json'), path.join(runDir, 'judge.json'));
    await fs.mkdir(path.join(runDir, 'analysis.json'));
    for (const [command, file, ...more] of [
      ['judge', 'judge.json'],
      ['code-discussion', 'analysis.json', '--yes'],
    ] as const) {
      const r = await startCli([command, root, id, '--force', ...more], suite.env).done;
      assert.equal(r.code, 1, `${command}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, `${command}: one sentence\n${r.stderr}`);
      assert.match(r.stderr, new RegExp(`runs/${id}/${file.replace('.', '\\.')}`), command);
      assert.doesNotMatch(r.stderr, /^\s+at /m);
    }
    assert.equal(suite.mock.requests.length, sent, 'nothing sent');
    assert.deepEqual(await outside.contents(), [], 'nothing written outside');
    assert.equal((await readRunRecord(root, id)).status, 'completed', 'the run is still readable');
  });

  it('resuming a run whose next round folder is a committed link: refused before a request, the run still resumable', async function () {
    if (process.platform === 'win32') this.skip();
    const root = await makeBriefRunReview(2);
    const w = await startCli(['run', root, '--task', 'brief', '--iterations', '2', '--turns', '1', '--human', 'm1', '--no-wait'], suite.env)
      .done;
    assert.equal(w.code, 3, w.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    const outside = await outsideFolder();
    const link = path.join(root, 'runs', id, 'iteration-2');
    await fs.symlink(outside.dir, link);
    const sent = suite.mock.requests.length;
    const before = await fs.readFile(path.join(root, 'runs', id, 'run.json'), 'utf8');
    const r = await startCli(['run', root, '--resume', id, '--no-wait'], suite.env).done;
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`^teamfusion run: .*runs/${id}/iteration-2`, 'm'));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.equal(suite.mock.requests.length, sent, 'nothing sent');
    assert.deepEqual(await outside.contents(), [], 'nothing written through the link');
    assert.equal(await fs.readFile(path.join(root, 'runs', id, 'run.json'), 'utf8'), before, 'run.json unchanged');
    // The link gone, the same run resumes (and waits for the person again).
    await fs.unlink(link);
    const again = await startCli(['run', root, '--resume', id, '--no-wait'], suite.env).done;
    assert.equal(again.code, 3, again.stderr);
  });
});
