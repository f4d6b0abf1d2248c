/**
 * Bounded work for every command (issue 29 item 7), through the built CLI against the scripted server: a review holds at
 * most MAX_MEMBERS members (rankings and comments alike, counted before any file is read), a run whose turns would carry
 * more text than a request may is refused before a request is built, and a run past the cost thresholds is asked for
 * (`--yes`; without a terminal and without it: one sentence, nothing sent, nothing written).
 */
import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { MAX_MEMBERS } from '../../../src/core/rankings/designerId';
import { CONFIRM_ABOVE_REQUESTS, askBeforeSending } from '../../../src/core/llm/costQuestion';
import { MAX_REQUEST_TEXT_BYTES, RequestTooLargeError } from '../../../src/core/llm/messages';
import { OpenAIChatBackend } from '../../../src/core/llm/openaiBackend';
import { makeBriefRunReview, makeReview } from './fixtures';
import { clientFor, mockSuite, startCli, turnRequests } from './helpers';

/** Every line of a CLI's output that is an error diagnostic or a sentence of refusal. */
const errorLines = (r: { stdout: string; stderr: string }): string[] => (r.stdout + r.stderr).split('\n').filter((l) => / error: /.test(l));

describe('bounded work: member cap, request size, the cost question (command line)', function () {
  this.timeout(120_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  it(`${MAX_MEMBERS + 1} comments or ranking files: one error naming the folder, none of them read; exit 1, nothing sent`, async () => {
    const brief = await makeBriefRunReview(MAX_MEMBERS + 1);
    for (const args of [
      ['validate', brief],
      ['run', brief, '--task', 'brief', '--yes'],
    ]) {
      const r = await startCli(args, suite.env).done;
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(
        errorLines(r),
        [
          `comments:0:0: error: comments/ has ${MAX_MEMBERS + 1} comment files; a review has at most ${MAX_MEMBERS} members. Move some out (no file was read).`,
        ],
        args[0],
      );
    }
    assert.equal(existsSync(path.join(brief, 'runs')), false);

    const design = await makeReview({ options: 3, designers: 2, size: 64 });
    for (let d = 3; d <= MAX_MEMBERS + 1; d++)
      await fs.copyFile(path.join(design, 'rankings', 'd1.yaml'), path.join(design, 'rankings', `d${d}.yaml`));
    const v = await startCli(['validate', design], suite.env).done;
    assert.equal(v.code, 1);
    assert.deepEqual(errorLines(v), [
      `rankings:0:0: error: rankings/ has ${MAX_MEMBERS + 1} ranking files; a review has at most ${MAX_MEMBERS} members. Move some out (no file was read).`,
    ]);
    assert.equal(suite.mock.requests.length, 0);
  });

  it('a run whose every turn would carry more text than a request may: one sentence naming the largest file, nothing sent or written', async () => {
    const root = await makeBriefRunReview(45);
    // 45 comments of 98 KB: each allowed on its own (under 100 KB), together past what one request may carry.
    for (let d = 1; d <= 45; d++) {
      await fs.writeFile(path.join(root, 'comments', `m${d}.md`), `---\ndesigner: Member ${d}\n---\n\n${'lorem '.repeat(16_800)}\n`);
    }
    assert.equal((await startCli(['validate', root], suite.env).done).code, 0);
    const r = await startCli(['run', root, '--iterations', '1', '--turns', '1', '--yes'], suite.env).done;
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^Every turn of this run would carry 4\\.\\d MB of the team's text, more than the ${(MAX_REQUEST_TEXT_BYTES / 1024 / 1024).toFixed(1)} MB of text a request may carry \\(the largest part: comments/m\\d+\\.md, 0\\.1 MB\\); nothing was sent\\.`,
        'm',
      ),
    );
    assert.doesNotMatch(r.stderr, /^\s+at /m);
    assert.equal(suite.mock.requests.length, 0);
    assert.equal(existsSync(path.join(root, 'runs')), false);
  });

  it('a request past the caps is refused by the backend before it is built: nothing reaches the server', async () => {
    const chat = new OpenAIChatBackend(clientFor(suite.mock));
    const big = 'x'.repeat(MAX_REQUEST_TEXT_BYTES + 1);
    await assert.rejects(chat.chat({ model: 'gpt-4o', messages: [{ role: 'user', content: big }] }), (err: unknown) => {
      assert.ok(err instanceof RequestTooLargeError);
      assert.match(err.message, /^This request would carry 4\.0 MB of text, more than the 4\.0 MB a request may; it was not sent\.$/);
      return true;
    });
    assert.equal(suite.mock.requests.length, 0);
  });

  it('a run past the threshold: without a terminal and without --yes one sentence, exit 1, nothing sent or written; with --yes it runs', async () => {
    // 50 members × 1 turn × 2 rounds + 2 revisions + 2 fork passages (forks: auto, at most one a round) + 1 baseline = 105 requests.
    const root = await makeBriefRunReview(50);
    const no = await startCli(['run', root, '--iterations', '2', '--turns', '1'], suite.env).done;
    assert.equal(no.code, 1, no.stderr);
    assert.equal(
      no.stderr.replace(/\$\d+\.\d\d/, '$X'),
      `This run would send 105 requests for 2 rounds of 50 members (about $X), more than ${CONFIRM_ABOVE_REQUESTS} requests; nothing was sent. Confirm to go ahead (on the command line: run it again with --yes).\n`,
    );
    assert.equal(suite.mock.requests.length, 0);
    assert.equal(existsSync(path.join(root, 'runs')), false);

    const yes = await startCli(['run', root, '--iterations', '2', '--turns', '1', '--yes', '--json'], suite.env).done;
    assert.equal(yes.code, 0, yes.stderr);
    assert.match(yes.stderr, /^Sending 105 requests for 2 rounds of 50 members \(about \$\d+\.\d\d\) \(--yes\)\.$/m);
    assert.equal(turnRequests(suite.mock).length, 100, 'every member spoke once a round');
    // Under the threshold nothing is asked: a small run needs no --yes.
    const small = await startCli(['run', await makeBriefRunReview(2), '--iterations', '1', '--turns', '1'], suite.env).done;
    assert.equal(small.code, 0, small.stderr);
    assert.doesNotMatch(small.stderr, /--yes/);
  });

  it('the one cost question: asked only above its thresholds (requests or dollars), refused in words without a yes', async () => {
    const asked: string[] = [];
    const say = (answer: boolean) => async (c: { of: string }) => (asked.push(c.of), answer);
    await askBeforeSending({ requests: CONFIRM_ABOVE_REQUESTS, of: 'at the threshold', estimateUsd: 1 }, say(false), 'Work');
    await askBeforeSending({ requests: CONFIRM_ABOVE_REQUESTS + 1, of: 'above', estimateUsd: 1 }, say(true), 'Work');
    await assert.rejects(askBeforeSending({ requests: 3, of: 'costly', estimateUsd: 12.5 }, say(false), 'Work'), {
      name: 'CostNotConfirmedError',
      message: /^Work would send 3 requests for costly \(about \$12\.50\), more than \$5; nothing was sent\./,
    });
    await assert.rejects(askBeforeSending({ requests: 101, of: 'unasked' }, undefined, 'Work'), {
      message: /would send 101 requests for unasked \(no price known for the model\), more than 100 requests/,
    });
    assert.deepEqual(asked, ['above', 'costly']);
  });
});
