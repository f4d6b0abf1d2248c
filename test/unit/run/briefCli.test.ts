import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { readRunRecord } from '../../../src/core/record/store';
import { makeBriefRunReview, makeReview, makeTempDir } from './fixtures';
import { mockSuite, startCli, turnRequests } from './helpers';
import { waitFor } from '../../support/waitFor';

describe('teamfusion run --task brief (command line)', function () {
  this.timeout(90_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  // run.json plus the journal (journal.ts): what a reader sees.
  const readRecord = (root: string, id: string) => readRunRecord(root, id);

  it('a folder with comments and no rankings runs as a brief review by default; --json says task brief, the brief and the baseline', async () => {
    const root = await makeBriefRunReview(2);
    const r = await startCli(['run', root, '--iterations', '2', '--turns', '1', '--json'], suite.env).done;
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { task: string; status: string; brief: string; baseline: { file: string } };
    assert.equal(out.task, 'brief');
    assert.equal(out.brief, 'iteration-2/brief.md');
    assert.equal(out.baseline.file, 'baseline.md');
    const text = await startCli(['run', root, '--iterations', '1', '--turns', '1'], suite.env).done;
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /== Round 1 \(last\): the brief ==/);
    assert.match(text.stdout, /^Ana \(turn 1, independent\): /m);
    assert.match(text.stdout, /Revised brief: iteration-1\/brief\.md \(coverage: 2 kept, 2 changed, 0 left out\)/);
  });

  it('a crash in the middle (kill -9) resumes without redoing a turn, and completes with the brief files', async () => {
    const root = await makeBriefRunReview(3);
    // Three turns answered; the fourth is asked and never answered before the kill.
    const release = suite.mock.hold(() => turnRequests(suite.mock).length > 3);
    const p = startCli(['run', root, '--task', 'brief', '--turns', '2', '--iterations', '2', '--mode', 'together'], suite.env);
    await waitFor('the run to ask its fourth turn', () => turnRequests(suite.mock).length >= 4);
    p.child.kill('SIGKILL');
    assert.equal((await p.done).signal, 'SIGKILL');
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    const before = await readRecord(root, id);
    assert.equal(before.status, 'running');
    assert.equal(before.task, 'brief');
    const recorded = before.iterations[0]!.messages.length;
    assert.equal(recorded, 3, 'the three answered turns are on disk');
    const atKill = turnRequests(suite.mock).length;

    release();
    const r = await startCli(['run', root, '--resume', id], suite.env).done;
    assert.equal(r.code, 0, r.stderr);
    const after = await readRecord(root, id);
    assert.equal(after.status, 'completed');
    // 2 rounds × 3 members × 2 turns = 12 turns; only the unrecorded ones were asked after the kill
    assert.equal(turnRequests(suite.mock).length - atKill, 12 - recorded);
    assert.deepEqual(after.iterations[0]!.messages.slice(0, recorded), before.iterations[0]!.messages);
    for (const f of ['iteration-1/brief.md', 'iteration-2/brief.md', 'baseline.md', 'result.md', 'transcript.md']) {
      await fs.access(path.join(root, 'runs', id, f));
    }
  });

  it('bad input: --task brief without comments, --task design without options/rankings → one sentence, exit 1; --task other → usage, exit 2; nothing sent', async () => {
    const design = await makeReview({ options: 3, designers: 2 });
    const a = await startCli(['run', design, '--task', 'brief'], suite.env).done;
    assert.equal(a.code, 1);
    assert.equal(a.stderr, 'A brief run needs comments on the brief (comments/<designer-id>.md, one per member); this review has none.\n');
    const brief = await makeBriefRunReview(2);
    const b = await startCli(['run', brief, '--task', 'design'], suite.env).done;
    assert.equal(b.code, 1);
    assert.equal(
      b.stderr,
      'A design run needs options/ and rankings/; this review has only comments on the brief (run it with --task brief).\n',
    );
    const c = await startCli(['run', brief, '--task', 'poem'], suite.env).done;
    assert.equal(c.code, 2);
    assert.match(c.stderr, /^teamfusion run: --task: must be brief or design, not "poem"\.\n/);
    assert.equal(suite.mock.requests.length, 0);
  });

  it('bad comments (no front matter, no designer:, empty body, oversized, a link out, a FIFO): file:line:col diagnostics, exit 1, nothing sent', async function () {
    if (process.platform === 'win32') this.skip();
    const cases: [string, (root: string) => Promise<void>, RegExp][] = [
      [
        'no front matter',
        (root) => fs.writeFile(path.join(root, 'comments', 'm1.md'), 'Just text.\n'),
        /^comments\/m1\.md:1:1: error: The comment has no front matter\./m,
      ],
      [
        'no designer',
        (root) => fs.writeFile(path.join(root, 'comments', 'm1.md'), '---\nrole: X\n---\nBody\n'),
        /^comments\/m1\.md:2:1: error: The designer field is missing\./m,
      ],
      [
        'empty body',
        (root) => fs.writeFile(path.join(root, 'comments', 'm1.md'), '---\ndesigner: Ana\n---\n\n'),
        /^comments\/m1\.md:4:1: error: The comment has no text below the front matter\./m,
      ],
      [
        'oversized',
        (root) => fs.writeFile(path.join(root, 'comments', 'm1.md'), `---\ndesigner: Ana\n---\n${'x'.repeat(200 * 1024)}\n`),
        /^comments\/m1\.md:0:0: error: comments\/m1\.md is too large/m,
      ],
      [
        'a link out',
        async (root) => {
          const outside = await makeTempDir('tf-out-');
          await fs.writeFile(path.join(outside, 'x.md'), '---\ndesigner: Eve\n---\nSecret\n');
          await fs.symlink(path.join(outside, 'x.md'), path.join(root, 'comments', 'eve.md'));
        },
        /^comments\/eve\.md:0:0: error: comments\/eve\.md leads outside the review folder/m,
      ],
      [
        'a FIFO',
        async (root) => void execFileSync('mkfifo', [path.join(root, 'comments', 'pipe.md')]),
        /^comments\/pipe\.md:0:0: error: comments\/pipe\.md is a named pipe \(FIFO\)/m,
      ],
      [
        'an id clash with a ranking',
        async (root) => {
          await fs.mkdir(path.join(root, 'rankings'));
          await fs.mkdir(path.join(root, 'options'));
          await fs.writeFile(path.join(root, 'rankings', 'm1.yaml'), 'designer: Somebody Else\nranking: []\n');
        },
        /^comments\/m1\.md:2:11: error: comments\/m1\.md says designer: "Ana", but rankings\/m1\.yaml \(the same designer id\) says "Somebody Else"/m,
      ],
    ];
    for (const [what, breakIt, expected] of cases) {
      const root = await makeBriefRunReview(2);
      await breakIt(root);
      const r = await startCli(['run', root, '--task', 'brief'], suite.env).done;
      assert.equal(r.code, 1, `${what}: ${r.stderr}`);
      assert.match(r.stderr, expected, what);
      await assert.rejects(fs.access(path.join(root, 'runs')), `${what}: no run folder`);
    }
    assert.equal(suite.mock.requests.length, 0, 'nothing sent');
  });
});
