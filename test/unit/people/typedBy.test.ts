/**
 * Typed for someone else (issue 39, item 2), with real git (a bare remote, one clone per member): on Ana's machine (her git
 * identity, d1) a line said `--as` Ben (d2) is taken in marked `typedBy: d1` and shown as "typed on Ana's machine for Ben" in
 * transcript.md, result.md, the terminal and the proxies' prompts — never as Ben's own words; a vote `--as` Ben is kept
 * marked and not counted as his; the same member in another case (`--as D1`) is hers, as for say. With signatures
 * required (review.yaml, each member's files signed with a key made here) both are refused in one sentence, and nothing
 * is written. Outside git nothing is told
 * apart (today's behaviour).
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam } from '../../support/gitTeam';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeReview, makeTempDir } from '../run/fixtures';
import { clientFor, runJson } from '../run/helpers';
import { resumeRun, startRun } from '../../../src/core/run/session';
import { PeopleInputError, submitPin, submitSay } from '../../../src/core/people/submit';
import { readInbox } from '../../../src/core/people/inbox';
import { pinnedLines } from '../../../src/core/people/pins';
import { castVote, VoteError } from '../../../src/core/evaluation/votes/cast';
import { loadVotes } from '../../../src/core/evaluation/votes/voteFile';
import { readRunRecord } from '../../../src/core/record/store';
import { forkedRun } from '../votes/forkedRun';
import { sayFromPanel } from '../../../src/extension/run/peopleBridge';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';
const FIXED = { mode: 'together', order: 'fixed', leadSpeaksLast: false } as const;

describe('typed for someone else: marked, never their own, refused with signatures (real git)', function () {
  this.timeout(300_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/ });

  /** A run waiting for Ben (d2, who took over his proxy), committed by Ana: a clone each for Ana, Ben and Chen. */
  async function waitingForBen(yaml = `lead: d1\n${MAPPING}`) {
    const seed = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), yaml);
    const cacheDir = await makeTempDir('tf-typed-cache-');
    const first = await startRun({
      reviewRoot: seed,
      client: clientFor(rig.mock),
      cacheDir,
      humans: ['d2'],
      settings: { iterations: 1, turnsPerAgent: 1, ...FIXED },
    });
    assert.equal(first.status, 'waiting');
    const t = await makeGitTeam(await makeTempDir('tf-typed-'), seed, ['ana', 'ben', 'chen'] as const);
    return { t, runId: first.id, cacheDir };
  }

  it("say --as Ben on Ana's machine: taken in marked typedBy d1 and shown as typed on Ana's machine for Ben, in the files and the prompts", async () => {
    const { t, runId, cacheDir } = await waitingForBen();
    const root = t.review('ana');
    const said = await rig.run(['say', root, runId, '--as', 'D2', 'Keep', 'the', 'serif.']);
    assert.equal(said.code, 0, said.stderr);
    assert.match(said.stderr, /Typed on Ana's machine for Ben \(never shown as their own words\): sent to run/);
    const [entry] = await readInbox(root, runId);
    assert.deepEqual(
      [entry?.entry.type, entry?.entry.type === 'say' ? [entry.entry.speaker, entry.entry.typedBy] : []],
      ['say', ['d2', 'd1']],
    );

    const done = await resumeRun({ reviewRoot: root, client: clientFor(rig.mock), cacheDir, runId });
    assert.equal(done.status, 'completed', done.error);
    const human = done.iterations[0]!.messages.filter((m) => m.kind === 'human');
    assert.deepEqual(
      human.map((m) => [m.speaker, m.typedBy, m.turn, m.content]),
      [['d2', 'd1', 1, 'Keep the serif.']],
      "it answers Ben's turn, marked as typed by Ana",
    );
    const transcript = await fs.readFile(path.join(root, 'runs', runId, 'transcript.md'), 'utf8');
    assert.match(transcript, /\*\*Ben\*\* \(typed on Ana's machine for Ben, turn 1\) · i1-m2: Keep the serif\./);
    assert.doesNotMatch(transcript, /\*\*Ben\*\* \(in person/, 'never as his own');
    const result = await fs.readFile(path.join(root, 'runs', runId, 'result.md'), 'utf8');
    assert.match(result, /Lines not in their speaker's own words: typed on Ana's machine for Ben/);
    // Chen's proxy, after Ben's turn, hears it as typed for Ben, not as Ben in person.
    const asked = rig.mock.requests.map((r) => JSON.stringify(r.body ?? {}));
    assert.ok(
      asked.some((b) => /typed on Ana's machine for Ben \(someone else typed it for them/.test(b)),
      'a later prompt says it was typed for Ben',
    );
    assert.ok(!asked.some((b) => /Keep the serif[^"]*\\"/.test(b) && /\\"Ben\\", in person/.test(b)), 'never as Ben in person');
  });

  it("a pin Ana types for Ben is kept marked, and pinned lines name both; Ana's own (--as D1, another case) is hers; the panel says it", async () => {
    const { t, runId, cacheDir } = await waitingForBen();
    const root = t.review('ana');
    await submitSay({ reviewRoot: root, runId, as: 'd1', text: 'Warm palette.' });
    const own = await submitSay({ reviewRoot: root, runId, as: 'D1', text: 'And the serif.' });
    assert.equal(own.typedBy, undefined, 'the same member in another case is her own');
    // The panel says it in its one sentence.
    const panel = await sayFromPanel({ trusted: true, driving: false }, root, runId, 'd2', 'Fine.');
    assert.deepEqual([panel.ok, panel.message], [true, "Said (typed on Ana's machine for Ben): the run goes on with it."]);
    const done = await resumeRun({ reviewRoot: root, client: clientFor(rig.mock), cacheDir, runId });
    const byContent = new Map(done.iterations[0]!.messages.filter((m) => m.kind === 'human').map((m) => [m.content, m]));
    assert.equal(byContent.get('And the serif.')?.typedBy, undefined);
    // The run is done: pins go to a completed run's inbox for its next refine; judged as the driver will take them in.
    const record = await readRunRecord(root, runId);
    assert.equal(record.status, 'completed');
    const pinned = await submitPin({ reviewRoot: root, runId, message: byContent.get('Warm palette.')!.id!, as: 'd2' }).catch(
      (e: unknown) => e,
    );
    assert.ok(!(pinned instanceof Error), String(pinned));
    assert.equal((pinned as { typedBy?: string }).typedBy, 'd1');
    const entries = await readInbox(root, runId);
    assert.deepEqual(
      entries.map((e) => (e.entry.type === 'pin' ? [e.entry.by, e.entry.typedBy] : [])),
      [['d2', 'd1']],
    );
    // As the driver takes it in, the prompts and files name the pin's typist and the pinned line's.
    const names: Record<string, string> = { d1: 'Ana', d2: 'Ben' };
    const typedPin = { ...record, pins: [{ message: byContent.get('Fine.')!.id!, by: 'd2', at: 'now', typedBy: 'd1' }] };
    assert.deepEqual(
      pinnedLines(typedPin, (id) => names[id] ?? id).map((l) => [l.by, l.typed]),
      [["Ben (typed on Ana's machine for Ben)", "typed on Ana's machine for Ben"]],
    );
  });

  it("with signatures required (each member's files signed by their own key) say and pin --as Ben are refused in one sentence, the CLI exits 1, nothing is written", async () => {
    const { t, runId } = await waitingForBen(`lead: d1\n${MAPPING}requireSignedCommits: true\n`);
    const root = t.review('ana');
    const refused =
      /^A line typed on Ana's machine for Ben is not taken: with signatures required \(requireSignedCommits\) only Ben's own signed commit speaks for them, so Ben says it on their own machine\.$/;
    await assert.rejects(
      submitSay({ reviewRoot: root, runId, as: 'd2', text: 'Keep the serif.' }),
      (e: unknown) => e instanceof PeopleInputError && refused.test(e.message),
    );
    const cli = await rig.run(['say', root, runId, '--as', 'd2', 'Keep', 'the', 'serif.']);
    assert.equal(cli.code, 1, cli.stderr);
    assert.match(cli.stderr, /A line typed on Ana's machine for Ben is not taken: with signatures required/);
    const pin = await rig.run(['pin', root, runId, 'i1-m1', '--as', 'd2']);
    assert.equal(pin.code, 1, pin.stderr);
    assert.match(pin.stderr, /A pin typed on Ana's machine for Ben is not taken/);
    const panel = await sayFromPanel({ trusted: true, driving: false }, root, runId, 'd2', 'Keep the serif.');
    assert.equal(panel.ok, false);
    assert.match(panel.message, refused, 'the panel shows the same sentence');
    assert.deepEqual(await readInbox(root, runId), [], 'nothing is written');

    // An entry typed for Ben that arrives anyway (written by hand, or by an older version) is not taken in by the driver.
    const cacheDir = await makeTempDir('tf-typed-cache-');
    const name = 'd2-1700000000000-000001-0badc0de';
    await fs.mkdir(path.join(root, 'runs', runId, 'inbox'), { recursive: true });
    await fs.writeFile(
      path.join(root, 'runs', runId, 'inbox', `${name}.json`),
      JSON.stringify({ type: 'say', speaker: 'd2', content: 'Keep the serif.', at: '2026-12-06T20:00:00Z', typedBy: 'd1' }),
    );
    const lines: string[] = [];
    const after = await resumeRun({ reviewRoot: root, client: clientFor(rig.mock), cacheDir, runId, log: (l: string) => lines.push(l) });
    assert.equal(after.status, 'waiting', 'Ben has not answered: the typed line is not his');
    assert.equal(after.iterations[0]!.messages.filter((m) => m.kind === 'human').length, 0);
    assert.ok(await fs.stat(path.join(root, 'runs', runId, 'inbox', `${name}.json`)), 'left in place');
    assert.ok(
      lines.some((l) =>
        l.includes(`${name}.json is not taken in and is left alone: it was typed on Ana's machine for Ben, and with signatures required`),
      ),
      lines.join('\n'),
    );
  });

  it('outside git nothing is told apart: say --as anyone is taken as today, unmarked', async () => {
    const seed = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), `lead: d1\n${MAPPING}requireSignedCommits: true\n`);
    const first = await startRun({
      reviewRoot: seed,
      client: clientFor(rig.mock),
      cacheDir: await makeTempDir('tf-typed-cache-'),
      humans: ['d2'],
      settings: { iterations: 1, turnsPerAgent: 1, ...FIXED },
    });
    const said = await submitSay({ reviewRoot: seed, runId: first.id, as: 'd2', text: 'Keep the serif.' });
    assert.equal(said.typedBy, undefined);
    const [entry] = await readInbox(seed, first.id);
    assert.equal(entry?.entry.typedBy, undefined);
  });
});

describe('typed votes: a vote Ana types for Ben is kept marked and never counted as his (real git)', function () {
  this.timeout(300_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/ });

  async function forkOnClones(extra = '') {
    const seed = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), `lead: d1\nremixesPerIteration: 2\n${MAPPING}${extra}`);
    const { runId } = await forkedRun(rig.mock, await makeTempDir('tf-typed-cache-'), { root: seed });
    const t = await makeGitTeam(await makeTempDir('tf-typed-votes-'), seed, ['ana', 'ben', 'chen'] as const);
    return { t, runId };
  }

  it("vote --as d2 on Ana's machine: kept with typedBy d1, not counted, said in one sentence; vote --as D1 (another case) is hers and counts", async () => {
    const { t, runId } = await forkOnClones();
    const root = t.review('ana');
    const ben = await rig.run(['vote', root, runId, '--as', 'd2', '1', 'a']);
    assert.equal(ben.code, 0, ben.stderr);
    assert.match(
      ben.stderr,
      /The vote for r1a on decision point 1 of round 1 was typed on Ana's machine for Ben; it is kept, and it does not count as Ben's vote \(a vote counts only as its member committed it\)\. It is kept in runs\/[^ ]+\/votes\/d2\.yaml; Ben votes on their own machine/,
    );
    assert.match(ben.stderr, /0 of 3 have voted/);
    assert.doesNotMatch(ben.stderr, /Vote saved/);
    assert.match(await fs.readFile(path.join(root, 'runs', runId, 'votes', 'd2.yaml'), 'utf8'), /typedBy: d1/);

    const ana = await rig.run(['vote', root, runId, '--as', 'D1', '1', 'a']);
    assert.equal(ana.code, 0, ana.stderr);
    assert.match(ana.stderr, /Vote saved \(runs\/[^ ]+\/votes\/d1\.yaml\)\./);
    assert.match(ana.stderr, /1 of 3 have voted/);

    // Every reader counts votes through the door: Ben's typed vote is not his, even when the file is not checked.
    const record = await readRunRecord(root, runId);
    const { members } = await loadVotes(root, record, ['d1', 'd2', 'd3']);
    assert.deepEqual(members.map((m) => [m.designer, m.votes.length]).sort(), [
      ['d1', 1],
      ['d2', 0],
    ]);
    // A vote for Chen typed here is typed for Chen too: Ana's is still the only vote counted.
    const chen = await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'b' });
    assert.match(chen.typed ?? '', /typed on Ana's machine for Chlo/);
    assert.deepEqual([chen.tally.voters, chen.tally.missing, chen.decision], [['d1'], ['d2', 'd3'], undefined]);
  });

  it("Ben's own committed votes are never overwritten by a vote typed for him", async () => {
    const { t, runId } = await forkOnClones();
    const own = await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--sync', '1', 'b']);
    assert.equal(own.code, 0, own.stderr);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    const typed = await rig.run(['vote', t.review('ana'), runId, '--as', 'd2', '1', 'a']);
    assert.equal(typed.code, 1, typed.stderr);
    assert.match(
      typed.stderr,
      /votes\/d2\.yaml holds d2's own votes as they committed them; a vote typed on d1's machine for d2 would replace them, so nothing is written/,
    );
    assert.equal(git(t.clone.ana, 'status', '--porcelain').trim(), '', 'nothing written');
    // A close or a reopen is the lead's (Ana, d1) alone: typed on Ben's machine for her, each is refused in one sentence.
    const close = await rig.run(['vote', t.review('ben'), runId, '--as', 'd1', '--close', '1']);
    assert.equal(close.code, 1, close.stderr);
    assert.match(close.stderr, /A close typed on Ben's machine for Ana is not taken: only the lead closes a vote, on their own machine\./);
    const reopen = await rig.run(['vote', t.review('ben'), runId, '--as', 'D1', '--reopen', '1']);
    assert.equal(reopen.code, 1, reopen.stderr);
    assert.match(
      reopen.stderr,
      /A reopen typed on d2's machine for d1 is not taken: only the lead reopens a decision, on their own machine\./,
    );
  });

  it("with signatures required (review.yaml; each member's files signed by their own key) vote --as d2 is refused in one sentence and nothing is written", async () => {
    const { t, runId } = await forkOnClones('requireSignedCommits: true\n');
    await assert.rejects(
      castVote({ reviewRoot: t.review('ana'), runId, as: 'd2', decisionPoint: 1, choice: 'a' }),
      (e: unknown) =>
        e instanceof VoteError &&
        /^A vote typed on Ana's machine for Ben is not taken: with signatures required \(requireSignedCommits\) only Ben's own signed commit speaks for them, so Ben votes on their own machine\.$/.test(
          e.message,
        ),
    );
    const cli = await rig.run(['vote', t.review('ana'), runId, '--as', 'd2', '1', 'a']);
    assert.equal(cli.code, 1, cli.stderr);
    assert.equal(git(t.clone.ana, 'status', '--porcelain').trim(), '', 'nothing written');
    assert.equal((await runJson(t.review('ana'), runId)).status, 'completed');
  });
});
