import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback, judgeShownAsA, type RecordedRequest } from '../../support/openaiMock';
import { requestedJsonSchema, requestTexts } from '../../support/openaiMock/autoResponder';
import { combineOrders, sideOf } from '../../../src/core/judge/judge';
import { makeBriefRunReview, makeReview, makeTempDir } from './fixtures';
import { completedBriefRun, mockSuite, startCli } from './helpers';

const judgeRequests = (reqs: readonly RecordedRequest[]) => reqs.filter((r) => requestedJsonSchema(r.body)?.name === 'teamfusion_judge');
const dimensionOf = (req: RecordedRequest) => /Dimension: ([a-z ]+?)\./.exec(requestTexts(req.body).join('\n'))?.[1];

/**
 * The scripted judge: a position bias on representativeness (always A: flips), TeamFusion's in both orders on
 * informativeness, the direct one in both orders on neutrality, and "tie" in one order only on readiness.
 */
function scriptedJudge(dimension: string, req: RecordedRequest): 'A' | 'B' | 'tie' {
  const a = judgeShownAsA(req);
  const letterOf = (side: 'teamfusion' | 'direct') => (a === side ? 'A' : 'B');
  if (dimension === 'representativeness') return 'A';
  if (dimension === 'informativeness') return letterOf('teamfusion');
  if (dimension === 'neutrality') return letterOf('direct');
  return a === 'teamfusion' ? 'tie' : letterOf('teamfusion');
}

describe('judge: the verdict of two orders', function () {
  it('a side wins only when both orders prefer it; a flip, or a tie in either order, is a tie (a flip is marked)', () => {
    assert.deepEqual(combineOrders('teamfusion', 'teamfusion'), { verdict: 'teamfusion', flipped: false });
    assert.deepEqual(combineOrders('direct', 'direct'), { verdict: 'direct', flipped: false });
    assert.deepEqual(combineOrders('teamfusion', 'direct'), { verdict: 'tie', flipped: true });
    assert.deepEqual(combineOrders('tie', 'teamfusion'), { verdict: 'tie', flipped: false });
    assert.deepEqual(combineOrders('tie', 'tie'), { verdict: 'tie', flipped: false });
    assert.equal(sideOf('A', 'teamfusion'), 'teamfusion');
    assert.equal(sideOf('B', 'teamfusion'), 'direct');
    assert.equal(sideOf('A', 'direct'), 'direct');
    assert.equal(sideOf('tie', 'direct'), 'tie');
  });
});

describe('teamfusion judge <review> <run-id> (command line)', function () {
  this.timeout(120_000);
  const suite = mockSuite({ fallback: () => briefFallback({ judge: scriptedJudge }) });

  it('asks each of the four dimensions twice with the order swapped, a flip is a tie; judge.json; reused unless --force; the cost shown', async () => {
    const { root, id } = await completedBriefRun(suite.env);
    const before = suite.mock.requests.length;
    const r = await startCli(['judge', root, id], suite.env).done;
    assert.equal(r.code, 0, r.stderr);

    const asked = judgeRequests(suite.mock.requests.slice(before));
    assert.equal(asked.length, 8);
    assert.equal(suite.mock.requests.length - before, 8, 'nothing but the judge was asked');
    for (const dimension of ['representativeness', 'informativeness', 'neutrality', 'readiness for the client']) {
      const pair = asked.filter((q) => dimensionOf(q) === dimension);
      assert.deepEqual(pair.map(judgeShownAsA).sort(), ['direct', 'teamfusion'], `${dimension}: both orders sent`);
      for (const q of pair) {
        const body = q.body as {
          response_format: { json_schema: { strict: boolean; schema: { properties: { better: { enum: string[] } } } } };
        };
        assert.equal(body.response_format.json_schema.strict, true);
        assert.deepEqual(body.response_format.json_schema.schema.properties.better.enum, ['A', 'B', 'tie']);
        assert.match(requestTexts(q.body).join('\n'), /MARK-m1[\s\S]*MARK-m4/, "the judge reads every member's comment");
      }
    }

    const file = path.join(root, 'runs', id, 'judge.json');
    const judge = JSON.parse(await fs.readFile(file, 'utf8')) as {
      dimensions: Record<string, string>;
      flipped: string[];
      orders: Record<string, { shownAsA: string; answer: string; prefers: string }[]>;
      requests: number;
      usage: { inputTokens: number };
      costUsd?: number;
      caveat: string;
    };
    assert.deepEqual(judge.dimensions, {
      representativeness: 'tie',
      informativeness: 'teamfusion',
      neutrality: 'direct',
      readiness: 'tie',
    });
    assert.deepEqual(judge.flipped, ['representativeness']);
    assert.deepEqual(
      judge.orders.representativeness!.map((o) => [o.shownAsA, o.answer, o.prefers]),
      [
        ['teamfusion', 'A', 'teamfusion'],
        ['direct', 'A', 'direct'],
      ],
    );
    assert.equal(judge.requests, 8);
    assert.ok(judge.usage.inputTokens > 0);
    assert.equal(typeof judge.costUsd, 'number');
    assert.match(judge.caveat, /a proxy for people's judgement, not a substitute/);
    assert.match(r.stdout, /^ {2}representativeness: tie \(it flipped with the order\)$/m);
    assert.match(r.stdout, /^ {2}informativeness: TeamFusion's revised brief$/m);
    assert.match(r.stdout, /^ {2}neutrality: the direct revision$/m);
    assert.match(r.stdout, /^ {2}readiness for the client: tie$/m);
    assert.match(r.stdout, /^8 requests, \d+ input and \d+ output tokens, estimated cost \$\d+\.\d{4}\. Written: runs\/.*\/judge\.json$/m);

    // reused: nothing sent, the same verdicts (--json says reused)
    const written = await fs.readFile(file, 'utf8');
    const again = await startCli(['judge', root, id, '--json'], suite.env).done;
    assert.equal(again.code, 0, again.stderr);
    assert.equal(suite.mock.requests.length - before, 8, 'a reused judge.json sends nothing');
    const reused = JSON.parse(again.stdout) as { reused: boolean; dimensions: Record<string, string> };
    assert.equal(reused.reused, true);
    assert.deepEqual(reused.dimensions, judge.dimensions);
    assert.equal(await fs.readFile(file, 'utf8'), written);

    // --force judges again (the judge now always prefers TeamFusion's) and replaces the file
    suite.mock.setFallback(briefFallback({ judge: (_d, q) => (judgeShownAsA(q) === 'teamfusion' ? 'A' : 'B') }));
    const forced = await startCli(['judge', root, id, '--force', '--json'], suite.env).done;
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(judgeRequests(suite.mock.requests.slice(before)).length, 16);
    const after = JSON.parse(await fs.readFile(file, 'utf8')) as typeof judge;
    assert.deepEqual(after.dimensions, {
      representativeness: 'teamfusion',
      informativeness: 'teamfusion',
      neutrality: 'teamfusion',
      readiness: 'teamfusion',
    });
    assert.deepEqual(after.flipped, []);
  });

  it('an answer that breaks the schema is repaired (the problem sent back), and counted in the requests', async () => {
    const { root, id } = await completedBriefRun(suite.env);
    const before = suite.mock.requests.length;
    suite.mock.enqueue('chat', { kind: 'json', value: { better: 'C', reason: 'neither' } });
    const r = await startCli(['judge', root, id, '--json'], suite.env).done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /The judge's answer on representativeness was not usable \(better: .*\); asking it to repair \(1 of 3\)\./);
    const asked = judgeRequests(suite.mock.requests.slice(before));
    assert.equal(asked.length, 9);
    assert.match(requestTexts(asked[1]!.body).at(-1)!, /^That answer could not be used: better: /);
    assert.equal((JSON.parse(r.stdout) as { requests: number }).requests, 9);
  });

  it('refuses in one sentence, sending nothing: a design run, a run that is not completed, a judge.json that is a link out or broken', async function () {
    if (process.platform === 'win32') this.skip();
    const design = await makeReview({ options: 3, designers: 2 });
    const d = await startCli(['run', design, '--iterations', '1', '--turns', '1'], suite.env).done;
    assert.equal(d.code, 0, d.stderr);
    const designId = (await fs.readdir(path.join(design, 'runs')))[0]!;
    const brief = await makeBriefRunReview(2);
    const w = await startCli(
      ['run', brief, '--task', 'brief', '--iterations', '1', '--turns', '1', '--human', 'm1', '--no-wait'],
      suite.env,
    ).done;
    assert.equal(w.code, 3, w.stderr);
    const waitingId = (await fs.readdir(path.join(brief, 'runs')))[0]!;
    const sent = suite.mock.requests.length;

    const a = await startCli(['judge', design, designId], suite.env).done;
    assert.equal(a.code, 1);
    assert.equal(
      a.stderr,
      `teamfusion judge: Run ${designId} is a design run; the judge compares a brief run's revised brief with its direct baseline, so there is nothing to judge.\n`,
    );
    const b = await startCli(['judge', brief, waitingId], suite.env).done;
    assert.equal(b.code, 1);
    assert.equal(b.stderr, `teamfusion judge: Run ${waitingId} is waiting; only a completed brief run can be judged (resume it first).\n`);

    const { root, id } = await completedBriefRun(suite.env);
    const sentBefore = suite.mock.requests.length;
    const outside = await makeTempDir('tf-out-');
    await fs.writeFile(path.join(outside, 'judge.json'), '{}\n');
    const file = path.join(root, 'runs', id, 'judge.json');
    await fs.symlink(path.join(outside, 'judge.json'), file);
    const link = await startCli(['judge', root, id], suite.env).done;
    assert.equal(link.code, 1);
    assert.match(link.stderr, new RegExp(`^runs/${id}/judge\\.json:0:0: error: runs/${id}/judge\\.json leads outside the review folder`));
    assert.equal(link.stderr.split('\n').length, 2, 'one line');
    await fs.unlink(file);
    await fs.writeFile(file, '{\n  "runId": 7\n}\n');
    const broken = await startCli(['judge', root, id], suite.env).done;
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, new RegExp(`^runs/${id}/judge\\.json:2:12: error: .*judge again with --force to replace it\\.\\n$`));
    assert.equal(suite.mock.requests.length, sentBefore, 'nothing sent');
    assert.ok(sent <= sentBefore);
    assert.equal(await fs.readFile(path.join(outside, 'judge.json'), 'utf8'), '{}\n', 'nothing outside written');
  });
});
