import { strict as assert } from 'node:assert';
import { discussionOf, type DiscussionSettings } from '../../../src/core/settings/discussionSettings';
import { nextBatch, pendingTurns, roundPlan, speakingOrder, visibleMessages } from '../../../src/core/discussion/schedule';

const TEAM = ['ana', 'ben', 'chloe', 'dev'];
const settings = (o: Partial<DiscussionSettings> = {}): DiscussionSettings => ({
  ...discussionOf({ turnsPerAgent: 2, mode: 'separate-then-together', order: 'rotate', orderSeed: 0 }),
  ...o,
});

describe('turn schedule: speaking order, phases, what each turn sees', () => {
  it('rotate: no two consecutive rounds share an order, and the same seed gives the same orders', () => {
    for (const seed of [0, 1, 7, 123456789, 4294967295]) {
      const orders = [1, 2, 3, 4, 5, 6].map((r) => speakingOrder(TEAM, r, settings({ orderSeed: seed })));
      for (let r = 1; r < orders.length; r++) assert.notDeepEqual(orders[r], orders[r - 1], `seed ${seed}, round ${r + 1}`);
      assert.deepEqual(
        orders,
        [1, 2, 3, 4, 5, 6].map((r) => speakingOrder(TEAM, r, settings({ orderSeed: seed }))),
      );
      for (const o of orders) assert.deepEqual([...o].sort(), [...TEAM].sort());
    }
    // seed 0: no offset, one place further each round
    assert.deepEqual(speakingOrder(TEAM, 1, settings()), ['ana', 'ben', 'chloe', 'dev']);
    assert.deepEqual(speakingOrder(TEAM, 2, settings()), ['ben', 'chloe', 'dev', 'ana']);
    // the seed decides where the rotation starts
    assert.deepEqual(speakingOrder(TEAM, 1, settings({ orderSeed: 2 })), ['chloe', 'dev', 'ana', 'ben']);
  });

  it('the lead speaks last after the others rotate, unless leadSpeaksLast is false', () => {
    const s = settings({ lead: 'ana' });
    assert.deepEqual(
      [1, 2, 3, 4].map((r) => speakingOrder(TEAM, r, s)),
      [
        ['ben', 'chloe', 'dev', 'ana'],
        ['chloe', 'dev', 'ben', 'ana'],
        ['dev', 'ben', 'chloe', 'ana'],
        ['ben', 'chloe', 'dev', 'ana'],
      ],
    );
    assert.deepEqual(speakingOrder(TEAM, 1, { ...s, leadSpeaksLast: false }), TEAM);
    // a lead who is not among the speakers (a --designers subset) changes nothing
    assert.deepEqual(speakingOrder(['ben', 'dev'], 1, settings({ lead: 'ana' })), ['ben', 'dev']);
  });

  it('shuffle is seeded, never repeats the previous round, and fixed keeps the file order', () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const seed of [1, 2, 3, 99]) {
      const orders = [1, 2, 3, 4, 5].map((r) => speakingOrder(six, r, settings({ order: 'shuffle', orderSeed: seed })));
      for (let r = 1; r < orders.length; r++) assert.notDeepEqual(orders[r], orders[r - 1]);
      assert.deepEqual(
        orders,
        [1, 2, 3, 4, 5].map((r) => speakingOrder(six, r, settings({ order: 'shuffle', orderSeed: seed }))),
      );
    }
    const differentSeeds = new Set(
      [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => speakingOrder(six, 1, settings({ order: 'shuffle', orderSeed: seed })).join()),
    );
    assert.ok(differentSeeds.size > 1, 'the seed matters');
    assert.deepEqual(speakingOrder(TEAM, 3, settings({ order: 'fixed', orderSeed: 5 })), TEAM);
  });

  it('separate-then-together: turn 1 of everyone is one concurrent independent group, then round-robin', () => {
    const plan = roundPlan(TEAM, 1, settings());
    assert.deepEqual(
      plan.turns.map((t) => `${t.speaker}/${t.turn}/${t.phase}`),
      [
        'ana/1/independent',
        'ben/1/independent',
        'chloe/1/independent',
        'dev/1/independent',
        'ana/2/together',
        'ben/2/together',
        'chloe/2/together',
        'dev/2/together',
      ],
    );
    assert.deepEqual(
      nextBatch(plan, []).map((t) => t.speaker),
      TEAM,
    );
    // a recorded independent answer is not asked again; the rest of the group still is
    assert.deepEqual(
      nextBatch(plan, [{ speaker: 'ben', turn: 1, kind: 'proxy' }]).map((t) => t.speaker),
      ['ana', 'chloe', 'dev'],
    );
    const firstDone = TEAM.map((speaker) => ({ speaker, turn: 1 }));
    assert.deepEqual(
      nextBatch(plan, firstDone).map((t) => `${t.speaker}/${t.turn}`),
      ['ana/2'],
    );
  });

  it('together is one turn at a time; separate runs each turn number as one group', () => {
    const together = roundPlan(TEAM, 1, settings({ mode: 'together' }));
    assert.ok(together.turns.every((t) => t.phase === 'together'));
    assert.equal(new Set(together.turns.map((t) => t.group)).size, together.turns.length);
    const separate = roundPlan(TEAM, 1, settings({ mode: 'separate' }));
    assert.ok(separate.turns.every((t) => t.phase === 'separate'));
    assert.deepEqual(
      nextBatch(separate, []).map((t) => `${t.speaker}/${t.turn}`),
      ['ana/1', 'ben/1', 'chloe/1', 'dev/1'],
    );
  });

  it('messages outside the schedule (a person, a mention with turn null) never use up a proxy turn', () => {
    const plan = roundPlan(TEAM, 1, settings({ turnsPerAgent: 1, mode: 'together' }));
    const msgs = [
      { speaker: 'ana', turn: null, kind: 'human' },
      { speaker: 'ben', turn: null, kind: 'proxy' },
      { speaker: 'chloe', turn: 1, kind: 'human' },
    ];
    assert.deepEqual(
      pendingTurns(plan, msgs).map((t) => t.speaker),
      TEAM,
    );
  });

  it("independent and separate turns see only their own speaker's messages of the round; together sees all", () => {
    const round = [
      { speaker: 'ana', turn: 1, content: 'a' },
      { speaker: 'ben', turn: 1, content: 'b' },
      { speaker: 'ana', turn: null, kind: 'human', content: 'my own words' },
    ];
    assert.deepEqual(
      visibleMessages({ speaker: 'ana', phase: 'independent' }, round).map((m) => m.content),
      ['a', 'my own words'],
    );
    assert.deepEqual(
      visibleMessages({ speaker: 'ben', phase: 'separate' }, round).map((m) => m.content),
      ['b'],
    );
    assert.equal(visibleMessages({ speaker: 'ben', phase: 'together' }, round).length, 3);
  });

  it('records made before these settings read as they were run: together, in file order', () => {
    const legacy = discussionOf({ turnsPerAgent: 2 });
    assert.equal(legacy.mode, 'together');
    assert.deepEqual(speakingOrder(TEAM, 2, legacy), TEAM);
  });
});
