/**
 * The scripted demo's answers are made from the run itself (test/support/openaiMock/runAnswers.ts), through the real CLI
 * against the spec-checking mock on a copy of the sample: each proxy speaks from its own designer's ranking and cites only
 * the images of its round; the consensus is the Borda order of the orders the proxies stated in that round; agreements
 * and decision points name the designers who hold them; the remix is a blend of its sources at their size.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { parse as parseYaml } from 'yaml';
import { runFallback } from '../../support/openaiMock/runAnswers';
import { useCliAgainstMock } from '../cli/buildCli';
import { SAMPLE, cleanupFixtures, tempDir } from '../review/fixtures';

const LABEL = 'Scripted reply:';

interface Msg {
  speaker: string;
  content: string;
}
interface Round {
  index: number;
  candidates: string[];
  ranking?: string[];
  messages: Msg[];
  agreements?: string[];
  decisionPoints?: Array<{ question: string; positions: Array<{ position: string; heldBy: string[] }> }>;
  remix?: { id: string; file: string; from: string[] };
}

/** Each designer's own ranking file, best first (ties in file order), with their reasons. */
async function ownOrders(
  review: string,
): Promise<Map<string, { name: string; order: string[]; ranks: Map<string, number>; reasons: string[] }>> {
  const out = new Map<string, { name: string; order: string[]; ranks: Map<string, number>; reasons: string[] }>();
  for (const f of await fs.readdir(path.join(review, 'rankings'))) {
    const text = await fs.readFile(path.join(review, 'rankings', f), 'utf8');
    const doc = (f.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as {
      designer: string;
      ranking: Array<{ option: string; rank: number; justification: string }>;
    };
    const sorted = [...doc.ranking].sort((a, b) => a.rank - b.rank);
    out.set(f.replace(/\.\w+$/, ''), {
      name: doc.designer,
      order: sorted.map((r) => r.option),
      ranks: new Map(sorted.map((r) => [r.option, r.rank])),
      reasons: sorted.map((r) => r.justification),
    });
  }
  return out;
}

describe('the scripted demo answers from the run itself', function () {
  this.timeout(180_000);
  const rig = useCliAgainstMock({ checkSpec: true });
  after(cleanupFixtures);

  it("proxies speak from their own ranking about their round only; the consensus is the round's Borda; people are named; the remix blends its sources", async () => {
    const review = path.join(await tempDir('tf-demo-answers-'), 'review');
    await fs.cp(SAMPLE, review, { recursive: true });
    rig.mock.setFallback(runFallback(LABEL));
    // The scripted decision point (which candidate leads) splits this team, so by default the round would fork it (issue 33,
    // test/unit/fork); here each remix round makes its one blended remix.
    const r = await rig.run(['run', review, '--iterations', '3', '--turns', '1', '--forks', 'off', '--pool', '1', '--checklist', 'off']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(rig.mock.specErrors(), []);
    const [runId] = await fs.readdir(path.join(review, 'runs'));
    const record = JSON.parse(await fs.readFile(path.join(review, 'runs', runId!, 'run.json'), 'utf8')) as {
      options: Array<{ id: string; label: string; file: string }>;
      iterations: Round[];
    };
    const own = await ownOrders(review);
    // A remix is an option of the record too (file under runs/), shown to the proxies as "Image 7 (remix r1)".
    const labelOf = (id: string): string => {
      const o = record.options.find((x) => x.id === id)!;
      return o.file.startsWith('runs/') ? `${o.label} (remix ${id})` : o.label;
    };

    for (const it of record.iterations) {
      const roundLabels = new Set(it.candidates.map(labelOf));
      const stated = new Map<string, string[]>();
      for (const m of it.messages) {
        assert.ok(m.content.startsWith(`${LABEL} `), m.content);
        // Only this round's images are cited.
        const cited = [...m.content.matchAll(/Image \d+(?: \(remix \w+\))?/g)].map((x) => x[0]);
        assert.deepEqual(
          cited.filter((l) => !roundLabels.has(l)),
          [],
          `${m.speaker} in round ${it.index}: ${m.content}`,
        );
        const order = /My order for this round: ([^.]+)\./.exec(m.content)![1]!.split(', ');
        stated.set(m.speaker, order);
        // This round's originals stand in the designer's own order; the first, when an original, is their favourite of them.
        const mine = own.get(m.speaker)!;
        const originals = mine.order.filter((o) => it.candidates.includes(o)).map(labelOf);
        assert.deepEqual(
          order.filter((l) => originals.includes(l)),
          originals,
          `${m.speaker}: ${m.content}`,
        );
        if (!order[0]!.includes('(remix')) assert.equal(order[0], originals[0], `${m.speaker}: ${m.content}`);
      }
      assert.equal(stated.size, own.size);
      // The consensus is the Borda order of the stated orders (ties in the round's order).
      const points = new Map(it.candidates.map((c) => [c, 0]));
      for (const order of stated.values())
        order.forEach((l, i) => {
          const id = it.candidates.find((c) => labelOf(c) === l)!;
          points.set(id, points.get(id)! + it.candidates.length - i);
        });
      const borda = [...it.candidates].sort(
        (a, b) => points.get(b)! - points.get(a)! || it.candidates.indexOf(a) - it.candidates.indexOf(b),
      );
      assert.deepEqual(it.ranking, borda.slice(0, it.ranking!.length), `round ${it.index}`);
      // Every agreement names people who do hold that image in their top two; decision points' sides are held by different people.
      for (const a of it.agreements ?? []) {
        const l = /put (Image \d+(?: \(remix \w+\))?) in their top two/.exec(a)![1]!;
        const holders = [...stated].filter(([, o]) => o.indexOf(l) >= 0 && o.indexOf(l) < 2).map(([id]) => own.get(id)!.name);
        for (const name of holders) assert.ok(a.includes(name), `${a} leaves out ${name}`);
        assert.ok(holders.length >= 2, a);
      }
      for (const d of it.decisionPoints ?? []) {
        const held = d.positions.flatMap((p) => p.heldBy);
        assert.equal(new Set(held).size, held.length, `${d.question}: someone on two sides`);
        assert.ok(
          d.positions.every((p) => p.heldBy.length > 0),
          d.question,
        );
      }
    }
    // Round 1 of the sample: the team's Borda order 1, 5, 6.
    assert.deepEqual(record.iterations[0]!.ranking, ['1', '5', '6']);

    // The remix: at its sources' size, and a blend led by the best-ranked source.
    const remix = record.iterations[0]!.remix!;
    const file = path.join(review, 'runs', runId!, remix.file);
    const src = (id: string): string => path.join(review, 'options', `${id}.png`);
    const meta = await sharp(file).metadata();
    const srcMeta = await sharp(src(remix.from[0]!)).metadata();
    assert.deepEqual([meta.width, meta.height], [srcMeta.width, srcMeta.height]);
    const pixels = (f: string) => sharp(f).resize(60, 40, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const mine = await pixels(file);
    const distance = async (f: string): Promise<number> => {
      const o = await pixels(f);
      let d = 0;
      for (let i = 0; i < o.length; i++) d += Math.abs(o[i]! - mine[i]!);
      return d / o.length;
    };
    const [d1, d3] = [await distance(src(remix.from[0]!)), await distance(src(remix.from[2]!))];
    assert.ok(d1 > 0 && d1 < d3, `the blend is nearest its first source (${d1.toFixed(1)} < ${d3.toFixed(1)})`);
  });

  it("the demo's run of two rounds: each proxy ranks the fork's remixes from its own designer's view, in its designer's quoted words; the sides differ; the pick is the team's", async () => {
    const review = path.join(await tempDir('tf-demo-view-'), 'review');
    await fs.cp(SAMPLE, review, { recursive: true });
    rig.mock.setFallback(runFallback(LABEL));
    // `npm run demo`: two iterations of one turn, forks as the review sets them (the scripted decision point splits this team).
    const r = await rig.run(['run', review, '--iterations', '2', '--turns', '1']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(rig.mock.specErrors(), []);
    const [runId] = await fs.readdir(path.join(review, 'runs'));
    const record = JSON.parse(await fs.readFile(path.join(review, 'runs', runId!, 'run.json'), 'utf8')) as {
      options: Array<{ id: string; label: string; file: string }>;
      iterations: Array<Round & { remixes?: Array<{ id: string; file: string; fork?: { position: string } }> }>;
    };
    const own = await ownOrders(review);
    const [one, two] = record.iterations;
    const forks = one!.remixes ?? [];
    assert.ok(forks.length >= 2 && forks.every((m) => m.fork), 'round 1 forks its decision point');
    // The sides of the fork are different pictures.
    const bytes = await Promise.all(forks.map((m) => fs.readFile(path.join(review, 'runs', runId!, m.file))));
    assert.equal(new Set(bytes.map((b) => b.toString('base64'))).size, forks.length, 'every side of the fork is its own image');

    const messages = two!.messages;
    assert.equal(messages.length, own.size);
    const body = (m: Msg): string => m.content.replace(own.get(m.speaker)!.name, '');
    for (const m of messages) {
      const mine = own.get(m.speaker)!;
      const others = [...own].filter(([id]) => id !== m.speaker).flatMap(([, o]) => o.reasons);
      const quotes = [...m.content.matchAll(/“([^”]+)”/g)].map((q) => q[1]!).filter((q) => !/^Image \d+ leads$/.test(q));
      assert.ok(quotes.length >= 2, `${m.speaker} quotes their designer: ${m.content}`);
      for (const q of quotes) {
        assert.ok(
          mine.reasons.some((x) => x.includes(q)),
          `${m.speaker} quotes ${q}, which is not their designer's`,
        );
        assert.ok(!others.some((x) => x.includes(q)), `${m.speaker} quotes ${q}, which is another designer's too`);
      }
      // Each remix of the fork that takes an original's side stands after every remix led by an original this designer ranks higher.
      const order = /My order for this round: ([^.]+)\./.exec(m.content)![1]!.split(', ');
      const ledBy = forks.map((f) => ({
        label: `${record.options.find((o) => o.id === f.id)!.label} (remix ${f.id})`,
        lead: /^Image (\d+) leads$/.exec(f.fork!.position)?.[1],
      }));
      const rankOf = (option: string): number => mine.ranks.get(option)!;
      for (const a of ledBy)
        for (const b of ledBy) {
          if (a.lead && b.lead && rankOf(a.lead) < rankOf(b.lead))
            assert.ok(
              order.indexOf(a.label) < order.indexOf(b.label),
              `${m.speaker}: ${a.label} (led by ${a.lead}) before ${b.label} (led by ${b.lead}) in ${order.join(', ')}`,
            );
        }
    }
    // No two proxies say the same thing in round 2.
    assert.equal(new Set(messages.map(body)).size, messages.length, messages.map((m) => m.content).join('\n'));
    // The final pick is the first of the team's consensus of the last round (the Borda of the orders stated in it).
    const result = await fs.readFile(path.join(review, 'runs', runId!, 'result.md'), 'utf8');
    const pick = two!.ranking![0]!;
    const stated = messages.map((m) => /My order for this round: ([^.]+)\./.exec(m.content)![1]!.split(', '));
    const labelOf = (id: string): string => {
      const o = record.options.find((x) => x.id === id)!;
      return o.file.startsWith('runs/') ? `${o.label} (remix ${id})` : o.label;
    };
    const points = (l: string): number => stated.reduce((s, o) => s + (o.length - o.indexOf(l)), 0);
    for (const c of two!.candidates)
      assert.ok(points(labelOf(pick)) >= points(labelOf(c)), `${labelOf(pick)} has the most Borda points of round 2`);
    assert.ok(result.includes(labelOf(pick).replace(/ \(remix.*$/, '')), 'result.md names the pick');
  });
});
