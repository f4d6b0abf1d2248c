import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadReview } from '../../../src/core/review';
import type { Review } from '../../../src/core/review/model';
import { saveRanking } from '../../../src/extension/panel/rankingWriter';
import { designerIdFromName } from '../../../src/core/review';

const SAMPLE = path.resolve(__dirname, '../../../../samples/lumen-perfume');

async function sampleCopy(): Promise<{ dir: string; review: Review }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-panel-rank-'));
  await fs.cp(SAMPLE, dir, { recursive: true });
  const loaded = await loadReview(dir, { decodeImages: false });
  assert.ok(loaded.review, JSON.stringify(loaded.diagnostics));
  return { dir, review: loaded.review };
}

function fullRanking(ids: string[]) {
  return ids.map((option, i) => ({ option, rank: i + 1, justification: `Reason ${option}: <script>x</script>` }));
}

describe('saving a ranking from the panel', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('makes a file id from the name', () => {
    assert.equal(designerIdFromName('Designer Ünal B.'), 'designer-unal-b');
    assert.equal(designerIdFromName('  !!! '), '');
  });

  it('writes rankings/<id>.yaml that the loader accepts as a new designer', async () => {
    const s = await sampleCopy();
    dir = s.dir;
    const ids = s.review.options.map((o) => o.id);
    const out = await saveRanking(s.review, {
      type: 'saveRanking',
      requestId: 1,
      designer: 'Eve Park',
      role: 'Copywriter',
      ranking: fullRanking([...ids].reverse()),
    });
    assert.equal(out.ok, true, JSON.stringify(out.diagnostics));
    assert.equal(out.file, 'rankings/eve-park.yaml');
    const after = await loadReview(dir, { decodeImages: false });
    const eve = after.review?.designers.find((d) => d.id === 'eve-park');
    assert.ok(eve);
    assert.equal(eve.role, 'Copywriter');
    assert.equal(eve.entries.find((e) => e.option === ids[ids.length - 1])?.rank, 1);
    assert.equal(eve.entries[0]?.justification.includes('<script>'), true, 'text kept literally');
    const left = (await fs.readdir(path.join(dir, 'rankings'))).filter((f) => f.endsWith('.tmp'));
    assert.deepEqual(left, []);
  });

  it("returns the validator's diagnostics and writes nothing when a justification is empty", async () => {
    const s = await sampleCopy();
    dir = s.dir;
    const ranking = fullRanking(s.review.options.map((o) => o.id));
    ranking[2] = { ...ranking[2]!, justification: '   ' };
    const out = await saveRanking(s.review, { type: 'saveRanking', requestId: 2, designer: 'Eve', ranking });
    assert.equal(out.ok, false);
    assert.ok(
      out.diagnostics.some((d) => d.severity === 'error' && d.file === 'rankings/eve.yaml'),
      JSON.stringify(out.diagnostics),
    );
    await assert.rejects(fs.stat(path.join(dir, 'rankings', 'eve.yaml')));
  });

  it('refuses a new ranking whose name collides with an existing designer', async () => {
    const s = await sampleCopy();
    dir = s.dir;
    const existing = s.review.designers[0]!;
    const out = await saveRanking(s.review, {
      type: 'saveRanking',
      requestId: 3,
      designer: existing.id,
      ranking: fullRanking(s.review.options.map((o) => o.id)),
    });
    assert.equal(out.ok, false);
    assert.match(out.diagnostics[0]!.message, /exists already/);
  });

  it('edits a JSON ranking in place, keeping its weight', async () => {
    const s = await sampleCopy();
    dir = s.dir;
    const json = s.review.designers.find((d) => d.file.endsWith('.json'));
    assert.ok(json, 'the sample has a JSON ranking');
    const ids = s.review.options.map((o) => o.id);
    // Give the designer a weight other than the default, so keeping it is actually tested.
    const original = JSON.parse(await fs.readFile(path.join(dir, json.file), 'utf8')) as Record<string, unknown>;
    await fs.writeFile(path.join(dir, json.file), JSON.stringify({ ...original, weight: 3 }));
    const review = { ...s.review, designers: s.review.designers.map((d) => (d === json ? { ...d, weight: 3 } : d)) };
    const out = await saveRanking(review, {
      type: 'saveRanking',
      requestId: 4,
      designerId: json.id,
      designer: json.name,
      ranking: fullRanking(ids),
    });
    assert.equal(out.ok, true, JSON.stringify(out.diagnostics));
    assert.equal(out.file, json.file);
    const written = JSON.parse(await fs.readFile(path.join(dir, json.file), 'utf8')) as { ranking: { option: string }[]; weight?: number };
    assert.deepEqual(
      written.ranking.map((e) => e.option),
      ids,
    );
    assert.equal(written.weight, 3);
  });

  it('reports a missing option as a diagnostic', async () => {
    const s = await sampleCopy();
    dir = s.dir;
    const out = await saveRanking(s.review, {
      type: 'saveRanking',
      requestId: 5,
      designer: 'Eve',
      ranking: fullRanking(s.review.options.slice(1).map((o) => o.id)),
    });
    assert.equal(out.ok, false);
    assert.ok(out.diagnostics.some((d) => d.severity === 'error'));
  });
});

describe("saving a blind re-rank from the panel: the run's team, each as themselves", () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });
  const TEAM = [
    { id: 'ana', name: 'Ana Ruiz' },
    { id: 'ben', name: 'Ben Okafor' },
  ];

  it("a member of the team: rankings/<member>.yaml under the team's name, whatever name the form held", async () => {
    const s = await sampleCopy();
    dir = s.dir;
    const ids = s.review.options.map((o) => o.id);
    const out = await saveRanking(
      s.review,
      { type: 'saveRanking', requestId: 1, designer: 'Someone Else', member: 'ben', ranking: fullRanking(ids) },
      TEAM,
    );
    assert.equal(out.ok, true, JSON.stringify(out.diagnostics));
    assert.deepEqual([out.file, out.designerId], ['rankings/ben.yaml', 'ben']);
    assert.match(await fs.readFile(path.join(dir, 'rankings', 'ben.yaml'), 'utf8'), /designer: Ben Okafor/);
    // Saving again replaces the member's own ranking (no "exists already").
    const reloaded = await loadReview(dir, { decodeImages: false });
    const again = await saveRanking(
      reloaded.review!,
      { type: 'saveRanking', requestId: 2, designer: '', member: 'ben', ranking: fullRanking([...ids].reverse()) },
      TEAM,
    );
    assert.equal(again.ok, true, JSON.stringify(again.diagnostics));
    assert.equal(again.file, 'rankings/ben.yaml');
  });

  it('nobody chosen, or someone not on the team: refused, naming the team, nothing written', async () => {
    const s = await sampleCopy();
    dir = s.dir;
    const ids = s.review.options.map((o) => o.id);
    const before = await fs.readdir(path.join(dir, 'rankings'));
    for (const member of [undefined, 'eve']) {
      const out = await saveRanking(
        s.review,
        { type: 'saveRanking', requestId: 1, designer: 'Eve Park', ...(member ? { member } : {}), ranking: fullRanking(ids) },
        TEAM,
      );
      assert.equal(out.ok, false);
      assert.match(out.diagnostics[0]!.message, /Choose who you are .*\(Ana Ruiz, Ben Okafor\)/);
    }
    assert.deepEqual(await fs.readdir(path.join(dir, 'rankings')), before);
  });
});
