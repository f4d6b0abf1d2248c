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

interface Msg { speaker: string; content: string }
interface Round { index: number; candidates: string[]; ranking?: string[]; messages: Msg[]; agreements?: string[]; decisionPoints?: Array<{ question: string; positions: Array<{ position: string; heldBy: string[] }> }>; remix?: { id: string; file: string; from: string[] } }

/** Each designer's own ranking file, best first (ties in file order). */
async function ownOrders(review: string): Promise<Map<string, { name: string; order: string[] }>> {
  const out = new Map<string, { name: string; order: string[] }>();
  for (const f of await fs.readdir(path.join(review, 'rankings'))) {
    const text = await fs.readFile(path.join(review, 'rankings', f), 'utf8');
    const doc = (f.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as { designer: string; ranking: Array<{ option: string; rank: number }> };
    out.set(f.replace(/\.\w+$/, ''), { name: doc.designer, order: [...doc.ranking].sort((a, b) => a.rank - b.rank).map((r) => r.option) });
  }
  return out;
}

describe('the scripted demo answers from the run itself', function () {
  this.timeout(180_000);
  const rig = useCliAgainstMock({ checkSpec: true });
  after(cleanupFixtures);

  it('proxies speak from their own ranking about their round only; the consensus is the round\'s Borda; people are named; the remix blends its sources', async () => {
    const review = path.join(await tempDir('tf-demo-answers-'), 'review');
    await fs.cp(SAMPLE, review, { recursive: true });
    rig.mock.setFallback(runFallback(LABEL));
    // The scripted decision point (which candidate leads) splits this team, so by default the round would fork it (issue 33,
    // test/unit/fork); here each remix round makes its one blended remix.
    const r = await rig.run(['run', review, '--iterations', '3', '--turns', '1', '--forks', 'off']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(rig.mock.specErrors(), []);
    const [runId] = await fs.readdir(path.join(review, 'runs'));
    const record = JSON.parse(await fs.readFile(path.join(review, 'runs', runId!, 'run.json'), 'utf8')) as { options: Array<{ id: string; label: string; file: string }>; iterations: Round[] };
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
        assert.deepEqual(cited.filter((l) => !roundLabels.has(l)), [], `${m.speaker} in round ${it.index}: ${m.content}`);
        const order = /My order for this round: ([^.]+)\./.exec(m.content)![1]!.split(', ');
        stated.set(m.speaker, order);
        // The designer's own favourite among this round's originals comes first, with their own reason.
        const mine = own.get(m.speaker)!;
        const best = mine.order.find((o) => it.candidates.includes(o))!;
        assert.equal(order[0], labelOf(best), `${m.speaker}: ${m.content}`);
      }
      assert.equal(stated.size, own.size);
      // The consensus is the Borda order of the stated orders (ties in the round's order).
      const points = new Map(it.candidates.map((c) => [c, 0]));
      for (const order of stated.values()) order.forEach((l, i) => { const id = it.candidates.find((c) => labelOf(c) === l)!; points.set(id, points.get(id)! + it.candidates.length - i); });
      const borda = [...it.candidates].sort((a, b) => points.get(b)! - points.get(a)! || it.candidates.indexOf(a) - it.candidates.indexOf(b));
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
        assert.ok(d.positions.every((p) => p.heldBy.length > 0), d.question);
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
    const distance = async (f: string): Promise<number> => { const o = await pixels(f); let d = 0; for (let i = 0; i < o.length; i++) d += Math.abs(o[i]! - mine[i]!); return d / o.length; };
    const [d1, d3] = [await distance(src(remix.from[0]!)), await distance(src(remix.from[2]!))];
    assert.ok(d1 > 0 && d1 < d3, `the blend is nearest its first source (${d1.toFixed(1)} < ${d3.toFixed(1)})`);
  });
});
