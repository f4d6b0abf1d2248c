/**
 * Several remixes a round (issue 19, item 1), through the real built CLI (dist/cli.js) against the scripted mock server,
 * which checks every request against OpenAI's spec: review.yaml remixesPerIteration / run --remixes, N distinct proposals
 * from the remix agent (strict json_schema, identical directions repaired), one image edit each (r<k>a, r<k>b, …), all of
 * them in the next round, the blind re-rank set and acceptance; a failed edit fails only its remix and resume redoes only it.
 */
import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { requestedJsonSchema } from '../../support/openaiMock/autoResponder';
import type { RecordedRequest } from '../../support/openaiMock/types';
import { checkRunRecord } from '../../../src/core/record/recordCheck';
import { answerSchema, parseAnswer, remixJsonSchema } from '../../../src/core/remix/remixAgent';
import { parseRunArgs } from '../../../src/cli/commands/run/run';
import { makeReview, makeTempDir } from './fixtures';
import { TEST_KEY, startCli, runJson, UNPOOLED_YAML, UNPOOLED_FLAGS } from './helpers';
import { hasSettled, waitFor } from '../../support/waitFor';

const isRemixAgent = (r: RecordedRequest): boolean => requestedJsonSchema(r.body)?.name === 'teamfusion_remix';
const edits = (mock: MockOpenAI): RecordedRequest[] => mock.requests.filter((r) => r.route === 'edit');

/** The four labelled parts, all saying `text`. */
function parts(text: string) {
  return { composition: text, visualElements: text, colour: text, typography: text };
}

describe('several remixes a round (command line)', function () {
  this.timeout(120_000);
  let mock: MockOpenAI;
  let env: Record<string, string>;
  before(async () => {
    mock = await MockOpenAI.start();
    env = {
      OPENAI_API_KEY: TEST_KEY,
      OPENAI_BASE_URL: mock.baseURL,
      XDG_CACHE_HOME: await makeTempDir('tf-xdg-'),
      TEAMFUSION_MAX_RETRIES: '0',
    };
  });
  after(async () => mock.close());
  beforeEach(() => {
    mock.reset();
    mock.setFallback(undefined);
  });
  afterEach(() => assert.deepEqual(mock.specErrors(), [], 'every request is valid against the official spec'));

  it('remixesPerIteration: 2, 3 iterations: two edits in each of the first two rounds, distinct directions and ids, all four in the next rounds and the blind set', async () => {
    const root = await makeReview({ options: 6, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), `iterations: 3\nturnsPerAgent: 1\nremixesPerIteration: 2\n${UNPOOLED_YAML}`);
    // Each round's edits are held until both have arrived: seen in flight together however slow this machine is (a
    // CLI that sent them one after the other would never send the second, and the wait would fail).
    const running = startCli(['run', root, '--json'], env).done;
    const ended = hasSettled(running);
    for (const k of [1, 2]) {
      const release = mock.hold(() => edits(mock).length > 2 * (k - 1));
      await waitFor(`round ${k}'s two edits in flight at once`, () => ended() || edits(mock).length >= 2 * k);
      release();
    }
    const r = await running;
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { id: string; remixes: { id: string; file: string; iteration: number }[] };
    assert.deepEqual(
      summary.remixes.map((m) => m.id),
      ['r1a', 'r1b', 'r2a', 'r2b'],
    );
    const rec = await runJson(root, summary.id);
    assert.equal(rec.settings.remixesPerIteration, 2);
    const [one, two, three] = rec.iterations;

    // The remix agent was asked for exactly two proposals, each its own directions and inputs (strict json_schema).
    const asked = mock.requests.filter(isRemixAgent);
    assert.equal(asked.length, 2, 'one remix-agent call a remix round (the final pick is another schema)');
    for (const req of asked) {
      const schema = requestedJsonSchema(req.body)!.schema as {
        properties: Record<string, { minItems?: number; maxItems?: number; items?: { required?: string[] } }>;
        required: string[];
      };
      assert.equal(schema.properties.remixes!.minItems, 2);
      assert.equal(schema.properties.remixes!.maxItems, 2);
      assert.deepEqual(schema.properties.remixes!.items!.required, ['idea', 'from', 'editingDirections']);
      assert.ok(!('editingDirections' in schema.properties), 'the directions live in each proposal');
      assert.ok(schema.required.includes('remixes'));
    }

    // Two edits a remix round, each with its own prompt; ids r<k>a, r<k>b; files remix-a.png, remix-b.png.
    const editPrompts = rec.prompts.filter((p) => p.kind === 'image-edit');
    assert.deepEqual(
      editPrompts.map((p) => p.iteration),
      [1, 1, 2, 2],
    );
    assert.equal(edits(mock).length, 4);
    assert.equal(mock.maxInFlight('edit'), 2, 'the edits of a round are sent at once');
    for (const k of [1, 2]) {
      const prompts = editPrompts.filter((p) => p.iteration === k).map((p) => p.prompt);
      assert.equal(new Set(prompts).size, 2, `round ${k}: the two edits have distinct directions`);
    }
    for (const [it, k] of [
      [one!, 1],
      [two!, 2],
    ] as const) {
      assert.equal(it.remix, undefined);
      assert.deepEqual(
        it.proposals!.map((p) => p.letter),
        ['a', 'b'],
      );
      assert.notEqual(it.proposals![0]!.editingDirections, it.proposals![1]!.editingDirections);
      assert.deepEqual(
        it.remixes!.map((m) => [m.id, m.file, m.letter]),
        [
          [`r${k}a`, `iteration-${k}/remix-a.png`, 'a'],
          [`r${k}b`, `iteration-${k}/remix-b.png`, 'b'],
        ],
      );
      for (const m of it.remixes!) {
        assert.ok(existsSync(path.join(root, 'runs', rec.id, m.file)), m.file);
        assert.equal(typeof m.costUsd, 'number', 'cost per remixed image stays reported');
        assert.deepEqual(m.from, it.proposals!.find((p) => p.letter === m.letter)!.from);
      }
    }
    // The edits went out at once, but the labels follow the letters.
    assert.deepEqual(
      ['r1a', 'r1b', 'r2a', 'r2b'].map((id) => rec.options.find((o) => o.id === id)!.label),
      ['Image 7', 'Image 8', 'Image 9', 'Image 10'],
    );
    // Narrowing keeps the top candidates plus every remix of that round.
    assert.deepEqual(two!.candidates, [...one!.ranking!.slice(0, 3), 'r1a', 'r1b']);
    assert.deepEqual(three!.candidates, [...two!.ranking!.slice(0, 2), 'r2a', 'r2b']);
    assert.equal(three!.final, true);
    assert.equal(three!.remixes, undefined);
    // Round 2's discussion sees both remixes of round 1 as new candidates.
    const round2Turn = mock.requests.find((q) => q.route === 'chat' && JSON.stringify(q.body).includes('(remix r1b)'));
    assert.ok(round2Turn, 'the round-2 prompts label r1b as a remix');

    const result = await fs.readFile(path.join(root, 'runs', rec.id, 'result.md'), 'utf8');
    assert.match(result, /Cost per remixed image/);
    assert.match(result, /- Remixes a round: 2, each its own image edit/);
    for (const id of ['r1a', 'r1b', 'r2a', 'r2b']) assert.match(result, new RegExp(`!\\[Remix ${id}\\]`));
    // The discussion calls them Image 7…10: result.md and transcript.md say which remix each is; the ids do not jump here.
    const mapping =
      'Image 7 = remix r1a (round 1); Image 8 = remix r1b (round 1); Image 9 = remix r2a (round 2); Image 10 = remix r2b (round 2).';
    const transcript = await fs.readFile(path.join(root, 'runs', rec.id, 'transcript.md'), 'utf8');
    for (const text of [result, transcript]) {
      assert.ok(text.includes(mapping), text);
      assert.ok(!text.includes('leaves a gap'), 'no id note when the ids run on');
    }

    // All four reach the blind re-rank set.
    const rr = await startCli(['rerank', root, rec.id], env).done;
    assert.equal(rr.code, 0, rr.stderr);
    const key = JSON.parse(await fs.readFile(path.join(root, 'runs', rec.id, 'rerank', 'key.json'), 'utf8')) as Record<
      string,
      { kind: string; id: string; file: string }
    >;
    assert.deepEqual(
      Object.values(key)
        .filter((v) => v.kind === 'remix')
        .map((v) => v.id)
        .sort(),
      ['r1a', 'r1b', 'r2a', 'r2b'],
    );
    assert.equal(Object.values(key).filter((v) => v.kind === 'option').length, 3);
    // …and acceptance: the team's blind re-rankings (a remix first) make compare count all four as generated.
    const letters = Object.keys(key).sort();
    const remixLetters = letters.filter((l) => key[l]!.kind === 'remix');
    for (const d of ['d1', 'd2', 'd3']) {
      const order = [remixLetters[1]!, ...letters.filter((l) => l !== remixLetters[1])];
      const lines = [
        `designer: ${d}`,
        'ranking:',
        ...order.flatMap((l, i) => [`  - option: "${l}"`, `    rank: ${i + 1}`, `    justification: Place ${i + 1}.`]),
      ];
      await fs.writeFile(path.join(root, 'runs', rec.id, 'rerank', 'rankings', `${d}.yaml`), `${lines.join('\n')}\n`);
    }
    const cmp = await startCli(['compare', root, rec.id, '--json'], env).done;
    const compared = JSON.parse(cmp.stdout) as {
      acceptance: { generated: string[]; top1: boolean; bestGenerated: { letter: string; id: string } };
    };
    assert.deepEqual([...compared.acceptance.generated].sort(), remixLetters);
    assert.equal(compared.acceptance.top1, true);
    assert.equal(compared.acceptance.bestGenerated.id, key[remixLetters[1]!]!.id);
    const check = checkRunRecord(JSON.parse(await fs.readFile(path.join(root, 'runs', rec.id, 'run.json'), 'utf8')), `runs/${rec.id}`, [
      '1.png',
      '2.png',
      '3.png',
      '4.png',
      '5.png',
      '6.png',
    ]);
    assert.ok('record' in check, JSON.stringify(check));
  });

  it('a failed edit of one of two remixes fails only that remix; resume makes only it (no new turns, no new remix agent)', async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    mock.enqueue('edit', {
      kind: 'error',
      status: 500,
      body: { error: { message: 'The image server had a hiccup.', type: 'server_error', param: null, code: null } },
    });
    const r = await startCli(['run', root, '--iterations', '2', '--turns', '1', '--remixes', '2', ...UNPOOLED_FLAGS, '--json'], env).done;
    assert.equal(r.code, 1, r.stdout);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    const failed = await runJson(root, id);
    assert.equal(failed.status, 'failed');
    const it = failed.iterations[0]!;
    assert.equal(it.proposals!.length, 2);
    assert.equal(it.remixes!.length, 1, 'the other remix was made and recorded');
    const made = it.remixes![0]!;
    const missing = made.letter === 'a' ? 'b' : 'a';
    assert.match(failed.error!, new RegExp(`The image edit of remix r1${missing} failed with HTTP 500`));
    assert.match(failed.error!, new RegExp(`${made.id} was made and kept; resume the run to make only the rest`));
    assert.match(r.stderr, /Resume with: teamfusion run/);
    assert.equal(edits(mock).length, 2);
    assert.equal(failed.prompts.filter((p) => p.kind === 'image-edit' && p.error).length, 1, 'the failed edit is recorded with its error');

    const before = {
      chat: mock.requests.filter((q) => q.route === 'chat').length,
      agent: mock.requests.filter(isRemixAgent).length,
      edits: edits(mock).length,
    };
    const resumed = await startCli(['run', root, '--resume', id, '--json'], env).done;
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(edits(mock).length - before.edits, 1, 'only the failed edit is made again');
    assert.equal(mock.requests.filter(isRemixAgent).length - before.agent, 0, 'the proposals are not asked again');
    const done = await runJson(root, id);
    assert.equal(done.status, 'completed');
    assert.deepEqual(
      done.iterations[0]!.remixes!.map((m) => m.id),
      ['r1a', 'r1b'],
    );
    assert.deepEqual(
      done.iterations[0]!.remixes!.find((m) => m.letter === made.letter),
      made,
      'the remix made before is kept as it was',
    );
    // The redone edit went with its own proposal's directions.
    const redone = edits(mock).at(-1)!;
    assert.equal(
      (redone.body as { prompt: string }).prompt.replace(/\r\n/g, '\n'),
      done.iterations[0]!.proposals!.find((p) => p.letter === missing)!.editingDirections,
    );
    assert.deepEqual(done.iterations[1]!.candidates.slice(-2), ['r1a', 'r1b']);
    assert.equal(done.iterations[1]!.messages.length, 2, 'round 2 ran once');
    assert.equal(mock.requests.filter((q) => q.route === 'chat').length - before.chat, 2 + 1, 'round 2: two turns and the final pick');
  });

  it('identical directions are repaired like any schema failure', async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    let first = true;
    mock.setFallback((req) => {
      if (!isRemixAgent(req) || !first) return undefined;
      first = false;
      const same = { idea: 'Combine the top two', from: ['1', '2'], editingDirections: parts('Keep the calm palette.') };
      return {
        kind: 'json',
        value: {
          ranking: ['1', '2'],
          reasons: [],
          remixes: [same, { ...same, idea: 'Push the favourite', editingDirections: parts('keep the CALM palette') }],
          agreements: [],
          disagreements: [],
          decisionPoints: [],
          backed: { d1: '1', d2: '2' },
        },
      };
    });
    const r = await startCli(['run', root, '--iterations', '2', '--turns', '1', '--remixes', '2', ...UNPOOLED_FLAGS, '--json'], env).done;
    assert.equal(r.code, 0, r.stderr);
    const rec = await runJson(root, (JSON.parse(r.stdout) as { id: string }).id);
    const repair = rec.prompts.find((p) => p.kind === 'remix-repair');
    assert.ok(repair, 'a repair was asked for');
    const rejected = rec.prompts.find((p) => p.kind === 'remix' && p.error);
    assert.match(rejected!.error!, /proposal 2 has the same editing directions as proposal 1/);
    assert.match(r.stderr, /same editing directions/);
    const it = rec.iterations[0]!;
    assert.notEqual(it.proposals![0]!.editingDirections, it.proposals![1]!.editingDirections);
    assert.equal(it.remixes!.length, 2);
  });

  it("--remixes beats review.yaml; 1 (the default) keeps today's one remix r<k> in remix.png", async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'remixesPerIteration: 3\n');
    const r = await startCli(['run', root, '--iterations', '2', '--turns', '1', '--remixes', '1', ...UNPOOLED_FLAGS, '--json'], env).done;
    assert.equal(r.code, 0, r.stderr);
    const rec = await runJson(root, (JSON.parse(r.stdout) as { id: string }).id);
    assert.equal(rec.settings.remixesPerIteration, 1);
    assert.deepEqual(rec.iterations[0]!.remix && [rec.iterations[0]!.remix.id, rec.iterations[0]!.remix.file], [
      'r1',
      'iteration-1/remix.png',
    ]);
    assert.equal(rec.iterations[0]!.proposals, undefined);
    assert.equal(edits(mock).length, 1);
    const schema = requestedJsonSchema(mock.requests.find(isRemixAgent)!.body)!.schema as { properties: Record<string, unknown> };
    assert.ok('editingDirections' in schema.properties && !('remixes' in schema.properties), 'one remix: the schema of today');
  });

  it('remixesPerIteration outside 1–4: review.yaml:line:col, exit 1, nothing sent or written; --remixes 0/5 is a usage error (exit 2)', async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'title: Lumen\nremixesPerIteration: 5\n');
    const v = await startCli(['validate', root], env).done;
    assert.equal(v.code, 1);
    assert.match(v.stdout + v.stderr, /review\.yaml:2:22: error: remixesPerIteration must be a whole number from 1 to 4 \(found 5\)\./);
    const r = await startCli(['run', root], env).done;
    assert.equal(r.code, 1);
    assert.match(r.stderr, /review\.yaml:2:22: error: remixesPerIteration must be a whole number from 1 to 4/);
    await fs.writeFile(path.join(root, 'review.yaml'), 'remixesPerIteration: 0\n');
    for (const n of ['0', '5', 'two']) {
      const u = await startCli(['run', root, '--remixes', n], env).done;
      assert.equal(u.code, 2, `--remixes ${n}: ${u.stderr}`);
      assert.match(u.stderr, /--remixes/);
    }
    assert.equal(mock.requests.length, 0, 'nothing sent');
    assert.equal(existsSync(path.join(root, 'runs')), false, 'nothing written');
    assert.equal(parseRunArgs(['r', '--remixes', '3']).remixes, 3);
    assert.throws(() => parseRunArgs(['r', '--remixes', '5']), /--remixes: remixes must be a whole number from 1 to 4/);
  });
});

describe('several remixes a round (remix agent and record)', () => {
  const ids = ['1', '2', '3'];
  const designers = ['ana', 'ben'];

  it('the schema asks for N proposals, each with an enum of the candidates; N = 1 is the schema of today', () => {
    const one = remixJsonSchema(ids, designers, false, 2) as { properties: Record<string, unknown> };
    assert.deepEqual(remixJsonSchema(ids, designers, false, 2, 1), one);
    assert.ok('editingDirections' in one.properties);
    const three = remixJsonSchema(ids, designers, false, 2, 3) as unknown as {
      properties: { remixes: { minItems: number; maxItems: number; items: { properties: { from: { items: { enum: string[] } } } } } };
    };
    assert.equal(three.properties.remixes.minItems, 3);
    assert.equal(three.properties.remixes.maxItems, 3);
    assert.deepEqual(three.properties.remixes.items.properties.from.items.enum, ids);
    assert.equal((three.properties.remixes.items.properties.from as unknown as { maxItems: number }).maxItems, 2);
    const final = remixJsonSchema(ids, designers, true, 3, 3) as { properties: Record<string, unknown> };
    assert.ok(!('remixes' in final.properties), 'the final pick makes no remix');
  });

  it('answers: the wrong number, an unknown candidate or identical directions are errors (repaired); distinct ones pass', () => {
    const v = answerSchema(ids, designers, false, 2);
    const answer = (remixes: unknown[]) =>
      JSON.stringify({ ranking: ['1', '2'], reasons: [], remixes, agreements: [], disagreements: [], decisionPoints: [] });
    const p = (from: string[], text: string) => ({ idea: text.slice(0, 10), from, editingDirections: parts(text) });
    assert.match((parseAnswer(answer([p(['1'], 'Warmer.')]), v, ids, 2) as { error: string }).error, /exactly 2 proposals/);
    assert.match(
      (parseAnswer(answer([p(['1'], 'Warmer.'), p(['9'], 'Cooler.')]), v, ids, 2) as { error: string }).error,
      /remixes\.1\.from\.0/,
    );
    assert.match(
      (parseAnswer(answer([p(['1'], 'Warmer!'), p(['2'], ' warmer ')]), v, ids, 2) as { error: string }).error,
      /same editing directions/,
    );
    const ok = parseAnswer(answer([p(['1', '2', '1'], 'Warmer.'), p(['2'], 'Cooler.')]), v, ids, 2) as {
      answer: { proposals: { from: string[] }[] };
    };
    assert.deepEqual(
      ok.answer.proposals.map((x) => x.from),
      [['1', '2'], ['2']],
    );
    const capped = parseAnswer(answer([p(['3', '1', '2'], 'Warmer.'), p(['2'], 'Cooler.')]), v, ids, 2) as {
      answer: { proposals: { from: string[] }[] };
    };
    assert.deepEqual(capped.answer.proposals[0]!.from, ['3', '1'], 'at most the consensus top K inputs, as one remix has');
  });

  it('the record check: several remixes in their own files; older records and one remix a round read unchanged', () => {
    const base = {
      id: 'run-1',
      status: 'completed',
      startedAt: 't',
      updatedAt: 't',
      settings: { chatModel: 'c', imageModel: 'i', turnsPerAgent: 1, iterations: 2, remixesPerIteration: 2 },
      options: [
        { id: '1', label: 'Image 1', file: 'options/1.png' },
        { id: '2', label: 'Image 2', file: 'options/2.png' },
        { id: 'r1a', label: 'Image 3', file: 'runs/run-1/iteration-1/remix-a.png' },
        { id: 'r1b', label: 'Image 4', file: 'runs/run-1/iteration-1/remix-b.png' },
      ],
      iterations: [
        {
          index: 1,
          candidates: ['1', '2'],
          messages: [],
          ranking: ['1', '2'],
          proposals: [
            { letter: 'a', from: ['1', '2'], editingDirections: 'A' },
            { letter: 'b', from: ['1'], editingDirections: 'B' },
          ],
          remixes: [
            { id: 'r1a', letter: 'a', file: 'iteration-1/remix-a.png', from: ['1', '2'] },
            { id: 'r1b', letter: 'b', file: 'iteration-1/remix-b.png', from: ['1'] },
          ],
        },
      ],
      usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 2 },
      prompts: [],
    };
    const names = ['1.png', '2.png'];
    assert.ok('record' in checkRunRecord(base, 'runs/run-1', names));
    const bad = (mutate: (r: typeof base) => void) => {
      const r = structuredClone(base);
      mutate(r);
      const out = checkRunRecord(r, 'runs/run-1', names);
      return 'problem' in out ? out.problem.message : 'accepted';
    };
    assert.match(
      bad((r) => {
        r.iterations[0]!.remixes[1]!.file = 'iteration-1/remix.png';
      }),
      /must be iteration-1\/remix-b\.png/,
    );
    assert.match(
      bad((r) => {
        r.options[3]!.file = 'runs/run-1/iteration-1/remix.png';
      }),
      /must be runs\/run-1\/iteration-1\/remix-b\.png/,
    );
    assert.match(
      bad((r) => {
        r.iterations[0]!.proposals[1]!.letter = 'c';
      }),
      /letter "b"/,
    );
    assert.match(
      bad((r) => {
        r.iterations[0]!.proposals[1]!.from = ['9'];
      }),
      /"9" is not one of the record's options/,
    );
    assert.match(
      bad((r) => {
        (r.settings as { remixesPerIteration: number }).remixesPerIteration = 5;
      }),
      /remixesPerIteration must be a whole number from 1 to 4/,
    );
    // An older record (one remix, no setting) is read as it always was.
    const older = {
      ...structuredClone(base),
      settings: { chatModel: 'c', imageModel: 'i', turnsPerAgent: 1, iterations: 2 },
      options: [...base.options.slice(0, 2), { id: 'r1', label: 'Image 3', file: 'runs/run-1/iteration-1/remix.png' }],
      iterations: [
        {
          index: 1,
          candidates: ['1', '2'],
          messages: [],
          ranking: ['1', '2'],
          editingDirections: 'A',
          remix: { id: 'r1', file: 'iteration-1/remix.png', from: ['1', '2'] },
        },
      ],
    };
    assert.ok('record' in checkRunRecord(older, 'runs/run-1', names));
  });
});
