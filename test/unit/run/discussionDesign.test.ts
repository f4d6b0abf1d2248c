/**
 * Discussion design against the spec-checking mock: independent first assessments that overlap in time and see nobody
 * else, seeded speaking orders, persona role, the team's prompt layers, temperature, image size/quality, --designers,
 * hierarchy, and a failure in the concurrent phase.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { RecordedRequest } from '../../support/openaiMock';
import { resumeRun, startRun, type RunnerOptions } from '../../../src/core/run/session';
import { readRunRecord } from '../../../src/core/record/store';
import { GOAL, STYLE } from '../../../src/core/discussion/prompts';
import { makeReview } from './fixtures';
import { chatRequests, collect, turnRequests, mockSuite, UNPOOLED } from './helpers';
import { hasSettled, waitFor } from '../../support/waitFor';

type ApiMessage = { role: string; content: string | { type: string; text?: string }[] };
const messagesOf = (r: RecordedRequest): ApiMessage[] => (r.body as { messages: ApiMessage[] }).messages;
const textOf = (m: ApiMessage): string => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('\n'));
/** The proxy a turn request is for ("You are role-playing Ana (…)"). */
const personaOf = (r: RecordedRequest): string | undefined => /You are role-playing "(\p{L}+)"/u.exec(textOf(messagesOf(r).at(-1)!))?.[1];
const NAMES = ['Ana', 'Ben', 'Chloé', 'Dev'];

describe('discussion design: modes, order, layers, hierarchy (against the spec-checking mock)', function () {
  this.timeout(90_000);
  const suite = mockSuite();
  const opts = (root: string, o: Partial<RunnerOptions> = {}): RunnerOptions => ({ reviewRoot: root, ...suite.engine, ...o });

  it("separate-then-together: round 1 independent calls overlap in time and none carries another proxy's message", async () => {
    const root = await makeReview({ options: 4, designers: 4 });
    // Nothing is answered until the four have arrived (a runner that asked one after another would never ask the second).
    const release = suite.mock.hold();
    const running = startRun(opts(root, { settings: { ...UNPOOLED, iterations: 1, turnsPerAgent: 2 } }));
    const ended = hasSettled(running);
    await waitFor('the four independent calls in flight at once', () => ended() || turnRequests(suite.mock).length >= 4);
    release();
    const record = await running;
    assert.equal(record.status, 'completed', record.error);
    const turns = turnRequests(suite.mock);
    const independent = turns.slice(0, 4);
    // The server saw all four at once: each arrived before any of them had been answered.
    const firstEnd = Math.min(...independent.map((r) => r.finishedAt!));
    assert.ok(
      independent.every((r) => r.receivedAt < firstEnd),
      'the four independent calls overlap',
    );
    assert.ok(suite.mock.maxInFlight('chat') >= 4, `peak in flight: ${suite.mock.maxInFlight('chat')}`);
    assert.deepEqual(independent.map(personaOf).sort(), [...NAMES].sort());
    for (const r of independent) {
      const others = NAMES.filter((n) => n !== personaOf(r));
      for (const m of messagesOf(r)) {
        for (const n of others)
          assert.ok(!textOf(m).startsWith(`${JSON.stringify(n)}: `), `${personaOf(r)}'s independent call carries ${n}'s message`);
      }
      assert.match(textOf(messagesOf(r).at(-1)!), /own first assessment of this round, written before hearing the others/);
    }
    // Round-robin turns then see everything said before them.
    const lastTurn = turns.at(-1)!;
    const transcript = messagesOf(lastTurn).filter((m) => NAMES.some((n) => textOf(m).startsWith(`${JSON.stringify(n)}: `)));
    assert.equal(transcript.length, 7);
    const it1 = record.iterations[0]!;
    assert.deepEqual(
      it1.messages.map((m) => m.phase),
      ['independent', 'independent', 'independent', 'independent', 'together', 'together', 'together', 'together'],
    );
  });

  it('maxConcurrency bounds how many independent calls are in flight', async () => {
    const root = await makeReview({ options: 3, designers: 4 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'maxConcurrency: 2\n');
    // Two are held until both have arrived: the limit is used. Later answers take a while, so a third sent too early
    // would be in flight beside them.
    const release = suite.mock.hold();
    suite.mock.latencyMs = 120;
    const running = startRun(opts(root, { settings: { ...UNPOOLED, iterations: 1, turnsPerAgent: 1 } }));
    const ended = hasSettled(running);
    await waitFor('two independent calls in flight at once', () => ended() || turnRequests(suite.mock).length >= 2);
    release();
    const record = await running;
    assert.equal(record.status, 'completed', record.error);
    assert.equal(record.settings.maxConcurrency, 2);
    assert.equal(suite.mock.maxInFlight('chat'), 2);
  });

  it('together mode asks one proxy at a time (the fixed-latency baseline)', async () => {
    const root = await makeReview({ options: 3, designers: 3 });
    suite.mock.latencyMs = 60;
    const record = await startRun(opts(root, { settings: { ...UNPOOLED, iterations: 1, turnsPerAgent: 1, mode: 'together' } }));
    assert.equal(record.status, 'completed', record.error);
    assert.equal(suite.mock.maxInFlight('chat'), 1);
    assert.ok(record.iterations[0]!.messages.every((m) => m.phase === 'together'));
  });

  it('rotate: the speaking order differs between rounds and the same seed gives the same orders', async () => {
    const root = await makeReview({ options: 6, designers: 4 });
    const orders = async (seed: number): Promise<string[][]> => {
      suite.mock.reset();
      const r = await startRun(
        opts(root, { settings: { ...UNPOOLED, iterations: 3, turnsPerAgent: 1, mode: 'together', orderSeed: seed } }),
      );
      assert.equal(r.status, 'completed', r.error);
      assert.equal(r.settings.orderSeed, seed, 'the seed is recorded');
      // what the server saw, in order of arrival
      const seen = turnRequests(suite.mock).map(personaOf);
      return [seen.slice(0, 4), seen.slice(4, 8), seen.slice(8, 12)] as string[][];
    };
    const a = await orders(12345);
    assert.notDeepEqual(a[0], a[1]);
    assert.notDeepEqual(a[1], a[2]);
    assert.deepEqual(await orders(12345), a, 'reproducible from the seed');
  });

  it('the lead speaks last, after the others rotate', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'lead: d1\norder: rotate\norderSeed: 0\n');
    const r = await startRun(opts(root, { settings: { ...UNPOOLED, iterations: 2, turnsPerAgent: 1, mode: 'together' } }));
    assert.equal(r.status, 'completed', r.error);
    assert.equal(r.settings.lead, 'd1');
    assert.deepEqual(
      r.iterations.map((it) => it.messages.map((m) => m.speaker)),
      [
        ['d2', 'd3', 'd1'],
        ['d3', 'd2', 'd1'],
      ],
    );
  });

  it('personaRole user: every chat request has at most one system message, and it is first', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'personaRole: user\nhierarchy: lead-decides\nlead: d2\n');
    suite.mock.setFallback((req) => {
      // the remix agent surfaces a decision point so that the lead's proxy is asked too
      const body = req.body as { response_format?: { json_schema?: { name?: string; schema?: { properties?: Record<string, unknown> } } } };
      if (body.response_format?.json_schema?.name !== 'teamfusion_remix') return undefined;
      const ids = (body.response_format.json_schema.schema!.properties!.ranking as { items: { enum: string[] } }).items.enum;
      return {
        kind: 'json',
        value: {
          ranking: ids.slice(0, 3),
          reasons: ids.slice(0, 3).map((candidate) => ({ candidate, reason: 'Calm and premium.' })),
          editingDirections: {
            composition: 'Centre the bottle of Image 1.',
            visualElements: 'Keep the halo.',
            colour: 'Warm amber.',
            typography: 'Thin serif.',
          },
          agreements: ['Calm tone.'],
          disagreements: [],
          decisionPoints: [
            {
              question: 'Serif or sans-serif?',
              positions: [
                { position: 'serif', heldBy: ['d1'] },
                { position: 'sans-serif', heldBy: ['d3'] },
              ],
            },
          ],
        },
      };
    });
    const r = await startRun(opts(root, { settings: { ...UNPOOLED, iterations: 2, turnsPerAgent: 1 } }));
    assert.equal(r.status, 'completed', r.error);
    const chats = chatRequests(suite.mock);
    assert.ok(
      chats.some((c) => /lead_decisions/.test(JSON.stringify(c.body))),
      'the lead-decision call is covered too',
    );
    for (const c of chats) {
      const roles = messagesOf(c).map((m) => m.role);
      assert.ok(roles.filter((x) => x === 'system').length <= 1, `roles: ${roles.join(',')}`);
      assert.ok(!roles.slice(1).includes('system'), `system only first: ${roles.join(',')}`);
    }
    // lead-decides: the decision is recorded with who made it, and the edit follows it
    const it1 = r.iterations[0]!;
    assert.equal(it1.decisions?.length, 1);
    assert.equal(it1.decisions![0]!.by, 'd2');
    assert.equal(it1.decisions![0]!.via, 'proxy');
    assert.equal(it1.decisions![0]!.question, 'Serif or sans-serif?');
    assert.match(it1.editingDirections!, /Decided by the lead: Serif or sans-serif → /);
    assert.match(textOf(messagesOf(chats[0]!)[0]!), /"Ben" is the lead and settles each open decision point/);
    // reasons per ranked candidate and the four labelled parts
    assert.deepEqual(
      it1.reasons!.map((x) => x.candidate),
      it1.ranking,
    );
    assert.match(
      it1.editingDirections!,
      /^Composition: Centre the bottle of Image 1\.\nVisual elements: Keep the halo\.\nColour: Warm amber\.\nTypography: Thin serif\./,
    );
    const result = await fs.readFile(path.join(root, 'runs', r.id, 'result.md'), 'utf8');
    assert.match(result, /Decided by the lead:\n\n- Serif or sans-serif\? → \*\*/);
  });

  it("the team's prompt layers reach the requests verbatim; temperature on every chat request; size and quality on the edit", async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    const goal = 'Speak for your designer: defend what they ranked first, and say plainly when another view wins you over.';
    const style = 'Short sentences. Name the image. No hedging.';
    const move = "Build on the previous speaker's idea before you criticise it.";
    await fs.writeFile(
      path.join(root, 'review.yaml'),
      `prompts:\n  goal: "${goal}"\n  style: ${style}\n  collaborativeMove: "${move}"\ntemperature: 0.4\nimageSize: 1536x1024\nimageQuality: low\n`,
    );
    const r = await startRun(opts(root, { settings: { ...UNPOOLED, iterations: 2, turnsPerAgent: 2 } }));
    assert.equal(r.status, 'completed', r.error);
    assert.deepEqual(r.settings.prompts, { goal, style, collaborativeMove: move });
    const chats = chatRequests(suite.mock);
    for (const c of chats) {
      assert.equal((c.body as { temperature?: number }).temperature, 0.4);
      const system = textOf(messagesOf(c)[0]!);
      assert.ok(system.includes(goal) && system.includes(style), 'goal and style verbatim in the system message');
      assert.ok(!system.includes(GOAL) && !system.includes(STYLE), 'the defaults are replaced');
    }
    // the house rule: given in every turn that follows others' messages of the round, and only there
    for (const t of turnRequests(suite.mock)) {
      const last = textOf(messagesOf(t).at(-1)!);
      const followsOthers = messagesOf(t).some(
        (m) => /^"(Ana|Ben)": /.test(textOf(m)) && !last.includes(`role-playing ${textOf(m).split(':')[0]}`),
      );
      assert.equal(last.includes(`House rule of this team: ${move}`), followsOthers);
    }
    assert.ok(turnRequests(suite.mock).some((t) => textOf(messagesOf(t).at(-1)!).includes(move)));
    const edit = suite.mock.requests.find((x) => x.route === 'edit')!;
    assert.equal((edit.body as { size?: string }).size, '1536x1024');
    assert.equal((edit.body as { quality?: string }).quality, 'low');
    assert.equal(r.prompts.find((p) => p.kind === 'image-edit')!.size, '1536x1024');
    assert.equal(r.settings.imageQuality, 'low');
    assert.equal(r.settings.temperature, 0.4);
  });

  it('defaults: temperature 1 on every chat request, medium quality, the representation-first goal', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const r = await startRun(opts(root, { settings: { ...UNPOOLED, iterations: 2, turnsPerAgent: 1 } }));
    assert.equal(r.status, 'completed', r.error);
    for (const c of chatRequests(suite.mock)) assert.equal((c.body as { temperature?: number }).temperature, 1);
    assert.match(textOf(messagesOf(chatRequests(suite.mock)[0]!)[0]!), /Advocate your designer's own preferred designs/);
    assert.match(
      textOf(messagesOf(turnRequests(suite.mock)[0]!).at(-1)!),
      /concrete improvements along composition, visual elements, colour and typography/,
    );
    const edit = suite.mock.requests.find((x) => x.route === 'edit')!;
    assert.equal((edit.body as { quality?: string }).quality, 'medium');
    // cost per remixed image: the mock reports gpt-image-1 usage; priced at list prices
    const remix = r.iterations[0]!.remix!;
    const p = r.prompts.find((x) => x.kind === 'image-edit')!.usage!;
    const expected = (p.imageTextInputTokens! * 5 + p.imageInputTokens! * 10 + p.imageOutputTokens! * 40) / 1e6;
    assert.ok(Math.abs(remix.costUsd! - expected) < 1e-6, `${remix.costUsd} vs ${expected}`);
    const result = await fs.readFile(path.join(root, 'runs', r.id, 'result.md'), 'utf8');
    assert.match(result, /Cost per remixed image \(the image edit, at list prices\): \$0\.\d{4}/);
    assert.match(result, /- Mode: separate-then-together/);
  });

  it('--designers (settings.designers): only they speak and count', async () => {
    const root = await makeReview({ options: 4, designers: 4 });
    const full = await startRun(opts(root, { settings: { ...UNPOOLED, iterations: 1, turnsPerAgent: 1 } }));
    suite.mock.reset();
    const r = await startRun(opts(root, { settings: { ...UNPOOLED, iterations: 1, turnsPerAgent: 1, designers: ['d3', 'D1'] } }));
    assert.equal(r.status, 'completed', r.error);
    assert.deepEqual(r.settings.designers, ['d1', 'd3']);
    assert.deepEqual(r.iterations[0]!.messages.map((m) => m.speaker).sort(), ['d1', 'd3']);
    assert.deepEqual(turnRequests(suite.mock).map(personaOf).sort(), ['Ana', 'Chloé']);
    assert.notEqual(r.kendallW, full.kendallW, 'agreement of the subset, not of the team');
    // d1 and d3 rank in opposite rotations of the fixture: W of just those two
    const remix = chatRequests(suite.mock).find((c) => (c.body as { response_format?: unknown }).response_format)!;
    assert.ok(!/"d2\\" = \\"Ben/.test(JSON.stringify(remix.body)), 'the remix agent is told only the designers taking part');
    await assert.rejects(startRun(opts(root, { settings: { ...UNPOOLED, designers: ['d1', 'zoe'] } })), /"zoe" is not a designer/);
    await assert.rejects(startRun(opts(root, { settings: { ...UNPOOLED, designers: ['d1', 'd1'] } })), /at least two designers/);
  });

  it('a failed independent assessment fails only itself: the others are recorded; resume asks only for the missing one', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    let failBen = true;
    suite.mock.setFallback((req) => {
      if (failBen && (req.body as { stream?: boolean }).stream && personaOf(req) === 'Ben') {
        return {
          kind: 'error',
          status: 400,
          body: { error: { message: 'Ben cannot be served now.', type: 'invalid_request_error', param: null, code: null } },
        };
      }
      return undefined;
    });
    const { events, onEvent } = collect();
    const failed = await startRun(opts(root, { onEvent, settings: { ...UNPOOLED, iterations: 1, turnsPerAgent: 2 } }));
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!, /Ben cannot be served now/);
    const onDisk = await readRunRecord(root, failed.id);
    assert.deepEqual(onDisk.iterations[0]!.messages.map((m) => `${m.speaker}/${m.phase}`).sort(), ['d1/independent', 'd3/independent']);
    assert.ok(events.some((e) => e.type === 'notice' && /Ben: this assessment failed; the others are recorded/.test(e.message)));

    failBen = false;
    const before = turnRequests(suite.mock).length;
    const done = await resumeRun({ ...opts(root), runId: failed.id });
    assert.equal(done.status, 'completed', done.error);
    const asked = turnRequests(suite.mock).slice(before);
    assert.equal(personaOf(asked[0]!), 'Ben', 'first the missing assessment');
    assert.equal(asked.filter((r) => /own first assessment/.test(textOf(messagesOf(r).at(-1)!))).length, 1, 'only the missing one');
    assert.equal(asked.length, 1 + 3);
  });

  it("weighted: the remix agent is told each designer's weight and the weighted-Borda tie-break", async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'hierarchy: weighted\nteam:\n  d1: { weight: 3 }\n');
    const r = await startRun(opts(root, { settings: { ...UNPOOLED, iterations: 1, turnsPerAgent: 1 } }));
    assert.equal(r.status, 'completed', r.error);
    const remix = chatRequests(suite.mock).find((c) => (c.body as { response_format?: unknown }).response_format)!;
    const last = textOf(messagesOf(remix).at(-1)!);
    assert.match(last, /"d1" = "Ana" \(role "Art Director"\), weight 3/);
    assert.match(last, /weighted Borda order of the team's own rankings: Image 1, /);
    assert.match(textOf(messagesOf(remix)[0]!), /views are weighted \("Ana" 3, "Ben" 1\)/);
  });
});
