import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { startRun } from '../../../src/core/run/session';
import { loadReview } from '../../../src/core/review/loadReview';
import { codeDiscussion, stanceTable, topChoiceOf } from '../../../src/core/analysis';
import { makeReview, makeTempDir } from '../run/fixtures';
import { clientFor, UNPOOLED } from '../run/helpers';

describe('stance kept or yielded: remix agent → run.json → result.md and analysis.json', function () {
  this.timeout(60_000);
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start();
  });
  after(async () => mock.close());

  it('the remix agent reports what each proxy backed per round (an enum of the round’s candidates or null); result.md shows the table of the record', async () => {
    const root = await makeReview({ options: 4, designers: 3, size: 64 });
    // The remix agent backs: round 1 d1 → "1", d2 → "1", d3 → "3"; final round: everyone → the first candidate.
    mock.setFallback((req) => {
      const rf = (
        req.body as {
          response_format?: {
            json_schema?: {
              name: string;
              schema: {
                properties: {
                  backed: { properties: Record<string, { enum: (string | null)[] }> };
                  ranking: { items: { enum: string[] }; minItems: number };
                };
              };
            };
          };
        }
      ).response_format;
      const s = rf?.json_schema;
      if (!s || !s.name.startsWith('teamfusion_')) return undefined;
      const ids = s.schema.properties.ranking.items.enum;
      const final = s.name === 'teamfusion_final_pick';
      const enumOf = s.schema.properties.backed.properties.d1!.enum;
      assert.deepEqual(enumOf, [...ids, null]);
      const backed = final ? { d1: ids[0]!, d2: ids[0]!, d3: null } : { d1: '1', d2: '1', d3: '3' };
      return {
        kind: 'json',
        value: {
          ranking: final ? ids : ids.slice(0, s.schema.properties.ranking.minItems),
          ...(final ? {} : { editingDirections: 'Keep Image 1.' }),
          agreements: [],
          disagreements: [],
          decisionPoints: [],
          backed,
        },
      };
    });
    const record = await startRun({
      reviewRoot: root,
      client: clientFor(mock),
      cacheDir: await makeTempDir('tf-cache-'),
      settings: { ...UNPOOLED, iterations: 2, turnsPerAgent: 1 },
    });
    assert.equal(record.status, 'completed', record.error);
    assert.deepEqual(
      record.iterations.map((it) => it.backed),
      [
        { d1: '1', d2: '1', d3: '3' },
        { d1: record.iterations[1]!.candidates[0], d2: record.iterations[1]!.candidates[0], d3: null },
      ],
    );

    const { review } = await loadReview(root, { decodeImages: false });
    const designers = review!.designers.map((d) => ({ id: d.id, topChoice: topChoiceOf(d.entries) }));
    // makeReview: d1 ranks "1" first, d2 "2", d3 "3".
    assert.deepEqual(
      designers.map((d) => d.topChoice),
      [['1'], ['2'], ['3']],
    );
    const t = stanceTable(record, designers);
    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.match(result, /## Stance kept or yielded/);
    for (const row of t.rows) {
      const line = result.split('\n').find((l) => l.startsWith(`| ${review!.designers.find((d) => d.id === row.designer)!.name} |`));
      assert.ok(line, `a row for ${row.designer}`);
      assert.match(
        line!,
        row.outcome === 'kept' ? /\| kept Image \d+ \|$/ : /\| yielded to (Image \d+|nothing|Image \d+ \(remix r1\)) \|$/,
      );
      if (row.movedAt) assert.ok(line!.includes(`yes: round ${row.movedAt.iteration}, after ${row.movedAt.message}`), line);
      else assert.ok(line!.includes('| no |'), line);
    }
    assert.equal(t.rows.find((r) => r.designer === 'd3')!.outcome, 'yielded');
    assert.equal(t.rows.find((r) => r.designer === 'd2')!.movedAt?.iteration, 1);
    // The moved-at message is d2's last proxy message of round 1.
    assert.equal(
      t.rows.find((r) => r.designer === 'd2')!.movedAt?.message,
      record.iterations[0]!.messages.filter((m) => m.speaker === 'd2').at(-1)!.id,
    );
    assert.match(result, new RegExp(`${t.kept} kept their designer's top choice, ${t.yielded} yielded`));

    // code-discussion stores the same table in analysis.json.
    mock.setFallback(undefined);
    const coded = await codeDiscussion({ reviewRoot: root, runId: record.id, client: clientFor(mock), designers });
    assert.deepEqual(coded.analysis.stance, t);
    assert.deepEqual(mock.specErrors(), []);
  });
});
