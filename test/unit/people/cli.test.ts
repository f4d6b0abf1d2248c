/**
 * `teamfusion run --human/--guest/--no-wait`, `say` and `pin` as separate processes (the bundled CLI): exit 3 at a
 * person's turn, say + --resume goes on, a say from another process reaches a running run, refusals exit 1.
 */
import { strict as assert } from 'node:assert';
import { startRun } from '../../../src/core/run/session';
import { useCliAgainstMock, type CliRun } from '../cli/buildCli';
import { humanRunArgs } from '../../support/builtCli';
import { makeReview } from '../run/fixtures';
import { clientFor, turnRequests, runJson } from '../run/helpers';

describe('people on the command line (spawned processes)', function () {
  this.timeout(90_000);
  const rig = useCliAgainstMock();
  const tf = (...args: string[]): Promise<CliRun> => rig.run(args);

  it('run --human stops with exit 3 at that turn; say --as + run --resume completes it, no model call for that turn', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const r = await tf(...humanRunArgs(root, 'd1', ['--json']));
    assert.equal(r.code, 3, r.stderr);
    const id = (JSON.parse(r.stdout) as { id: string; status: string }).id;
    assert.equal((JSON.parse(r.stdout) as { status: string }).status, 'waiting');
    assert.match(r.stderr, /Waiting for Ana; answer with `teamfusion say .* --as d1 <message>`/);
    assert.equal(rig.mock.requests.length, 0, 'Ana speaks first: nothing was asked of a model');
    assert.deepEqual((await runJson(root, id)).waitingFor, { speaker: 'd1', iteration: 1, turn: 1 });

    for (const [args, why] of [
      [['--as', 'nobody', 'hi'], /"nobody" is not a designer/],
      [['--as', 'd1', '  '], /empty/],
      [['--as', 'd1', 'ask', '@ghost'], /@ghost names nobody/],
    ] as const) {
      const bad = await tf('say', root, id, ...args);
      assert.equal(bad.code, 1, bad.stderr);
      assert.match(bad.stderr, why);
    }
    const said = await tf('say', root, id, '--as', 'd1', 'Image', '2', 'is', 'the', 'one.');
    assert.equal(said.code, 0, said.stderr);
    assert.match(said.stderr, /sent to run .* as runs\/.*\/inbox\/d1-\S+\.json \(it answers turn 1\); nobody drives the run now/);
    assert.match(said.stderr, /Go on with: teamfusion run .* --resume /);
    assert.equal(
      (await runJson(root, id)).iterations[0]!.messages.length,
      0,
      'say writes only its inbox entry; the driver writes run.json',
    );
    const resumed = await tf('run', root, '--resume', id, '--json');
    assert.equal(resumed.code, 0, resumed.stderr);
    const done = await runJson(root, id);
    assert.deepEqual(
      done.iterations[0]!.messages.map((m) => `${m.kind}:${m.speaker}/${m.turn}`),
      ['human:d1/1', 'proxy:d2/1'],
    );
    assert.equal(turnRequests(rig.mock).length, 1, "only Ben's proxy was asked");
    assert.ok(!JSON.stringify(turnRequests(rig.mock)[0]!.body).includes('role-playing \\"Ana'));

    const late = await tf('say', root, id, '--as', 'd1', 'more');
    assert.equal(late.code, 1);
    assert.match(late.stderr, /is completed/);
    const pin = await tf('pin', root, id, 'i1-m2');
    assert.equal(pin.code, 1, 'no lead and no --as');
    assert.match(pin.stderr, /--as/);
    const pinned = await tf('pin', root, id, 'i1-m2', '--as', 'd2');
    assert.equal(pinned.code, 0, pinned.stderr);
    assert.match(
      pinned.stderr,
      /Message i1-m2 pinned \(runs\/.*\/inbox\/d2-\S+\.json\); nobody drives .* now, so it is taken in when the run goes on/,
    );
    assert.equal((await tf('pin', root, id, 'i1-m1', '--as', 'd2', '--remove')).code, 1, 'not pinned');
    assert.equal((await runJson(root, id)).pins, undefined, 'the pin waits in the inbox: only a driver writes run.json');
  });

  it('a say from another process while a run is running is taken in at the next turn and shown in every later proxy prompt', async () => {
    const root = await makeReview({ options: 3, designers: 3 });
    rig.mock.latencyMs = 250;
    let said: Promise<CliRun> | undefined;
    // The run's requests wait for the say process to end once it has started: on a loaded machine starting a node process
    // can take longer than the rest of the round, so the run waits on that condition, not on the mock's latency.
    const afterSay: typeof fetch = async (input, init) => {
      await said;
      return fetch(input, init);
    };
    const rec = await startRun({
      reviewRoot: root,
      client: clientFor(rig.mock).withOptions({ fetch: afterSay }),
      settings: { iterations: 2, turnsPerAgent: 3 }, // the default mode: independent first assessments, then together
      onEvent: (e) => {
        if (e.type === 'turn-completed' && e.message.id === 'i1-m1')
          said = tf('say', root, e.runId, '--as', 'd3', 'Please keep the gold foil.');
      },
    });
    assert.equal(rec.status, 'completed', rec.error);
    const r = await said!;
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /the process driving \S+ \(pid \d+ on .+, since .+\) takes it in at its next turn/,
      'names the process that takes it in',
    );
    const human = rec.iterations.flatMap((it) => it.messages).filter((m) => m.kind === 'human');
    assert.equal(human.length, 1);
    assert.deepEqual([human[0]!.speaker, human[0]!.turn, human[0]!.content], ['d3', null, 'Please keep the gold foil.']);
    const turns = turnRequests(rig.mock);
    const firstWith = turns.findIndex((t) => JSON.stringify(t.body).includes('Please keep the gold foil.'));
    assert.ok(firstWith > 0 && firstWith < 9, `taken in during iteration 1 (first seen in request ${firstWith})`);
    // Her name is quoted as data ("Chloé", in person …), so in the request's JSON its quotes are escaped.
    for (const t of turns.slice(firstWith)) assert.ok(JSON.stringify(t.body).includes('Chloé\\", in person'), 'every later proxy prompt');
    // Chloé's own proxy still speaks all its turns: her message used up none of them.
    assert.equal(rec.iterations[0]!.messages.filter((m) => m.speaker === 'd3' && m.kind === 'proxy').length, 3);
  });
});
