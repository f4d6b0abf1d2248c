import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  checkRatingsText,
  checkSurveyText,
  compareRun,
  ratableMessages,
  summarizeRatings,
  summarizeSurvey,
  writeRatings,
  writeSurvey,
} from '../../../src/core/evaluation';
import { formatDiagnostic } from '../../../src/core/review';
import { readRunRecord } from '../../../src/core/record/store';
import { makeReviewWithRun, RUN_ID } from './fixtures';

const FILE = `runs/${RUN_ID}/ratings/d1.yaml`;

describe('evaluation: ratings of proxy commentary and the survey', function () {
  this.timeout(20_000);
  let root = '';
  before(async () => {
    root = await makeReviewWithRun();
  });
  after(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it("messages get ids i<iteration>-m<index>; only a designer's own proxy messages can be rated (never a guest's)", async () => {
    const record = await readRunRecord(root, RUN_ID);
    assert.deepEqual(
      record.iterations[0]!.messages.map((m) => m.id),
      ['i1-m1', 'i1-m2', 'i1-m3', 'i1-m4'],
    );
    assert.deepEqual(ratableMessages(record, 'd1'), ['i1-m1', 'i1-m4']);
    assert.deepEqual(ratableMessages(record, 'd2'), ['i1-m2']);
    assert.deepEqual(ratableMessages(record, 'g1'), []);
  });

  it('a valid ratings file; every mistake is an error at its line and column', async () => {
    const record = await readRunRecord(root, RUN_ID);
    const ok = checkRatingsText(
      'designer: d1\nratings:\n  - message: i1-m1\n    score: 4\n    comment: close\n  - message: i1-m4\n    score: 2\n',
      FILE,
      record,
    );
    assert.deepEqual(ok.diagnostics, []);
    assert.deepEqual(ok.ratings?.ratings, [
      { message: 'i1-m1', score: 4, comment: 'close' },
      { message: 'i1-m4', score: 2 },
    ]);
    const bad = checkRatingsText(
      'designer: d1\nratings:\n  - message: i9-m9\n    score: 3\n  - message: i1-m2\n    score: 3\n  - message: i1-m3\n    score: 3\n  - message: i1-m1\n    score: 6\n',
      FILE,
      record,
    );
    assert.deepEqual(bad.diagnostics.map(formatDiagnostic), [
      `${FILE}:3:14: error: There is no message "i9-m9" in this run.`,
      `${FILE}:5:14: error: Message i1-m2 is by d2's proxy; d1 rates only their own proxy's messages.`,
      `${FILE}:7:14: error: Message i1-m3 is a guest message; only proxy messages can be rated.`,
      `${FILE}:10:12: error: score must be a whole number from 1 to 5 (found 6).`,
    ]);
    assert.equal(bad.ratings, undefined);
    const other = checkRatingsText('designer: d2\nratings: []\n', FILE, record);
    assert.deepEqual(other.diagnostics.map(formatDiagnostic), [`${FILE}:1:11: error: designer must be d1 (the file's name), found "d2".`]);
    const broken = checkRatingsText('designer: d1\nratings:\n  - message: [\n', FILE, record);
    assert.match(formatDiagnostic(broken.diagnostics[0]!), new RegExp(`^${FILE}:\\d+:\\d+: error: This is not valid YAML`));
  });

  it('survey: answers 1–5, an answer outside is an error at its line', () => {
    const file = `runs/${RUN_ID}/survey/d1.yaml`;
    const ok = checkSurveyText('designer: d1\nrepresentative: 4\nclarity: 5\nsatisfied: 4\ncomment: fine\n', file);
    assert.deepEqual(ok.survey, { designer: 'd1', file, representative: 4, clarity: 5, satisfied: 4, comment: 'fine' });
    const bad = checkSurveyText('designer: d1\nrepresentative: 0\nclarity: 2.5\nsatisfied: "4"\n', file);
    assert.deepEqual(
      bad.diagnostics.map((d) => `${d.line}:${d.column}`),
      ['2:17', '3:10', '4:12'],
    );
    assert.match(bad.diagnostics[0]!.message, /representative must be a whole number from 1 \(strongly disagree\) to 5/);
  });

  it('summaries: mean, sample SD, positive share, designer means, survey means (null without answers, never 0)', () => {
    const r = summarizeRatings([
      {
        designer: 'ana',
        file: '',
        ratings: [
          { message: 'a', score: 5 },
          { message: 'b', score: 4 },
          { message: 'c', score: 3 },
        ],
      },
      { designer: 'ben', file: '', ratings: [{ message: 'd', score: 2 }] },
    ]);
    // Scores 5, 4, 3, 2: mean 3.5, sample variance (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3.
    assert.equal(r.n, 4);
    assert.equal(r.mean, 3.5);
    assert.ok(Math.abs(r.sd! - Math.sqrt(5 / 3)) < 1e-12);
    assert.equal(r.positiveShare, 0.5);
    assert.deepEqual(r.byDesigner, { ana: { n: 3, mean: 4 }, ben: { n: 1, mean: 2 } });
    assert.deepEqual(r.lowestDesigner, { designer: 'ben', mean: 2 });
    assert.deepEqual(r.distribution, [0, 1, 1, 1, 1]);
    const empty = summarizeRatings([]);
    assert.deepEqual([empty.mean, empty.sd, empty.positiveShare, empty.lowestDesigner], [null, null, null, null]);
    const s = summarizeSurvey([
      { designer: 'a', file: '', representative: 4, clarity: 5, satisfied: 4 },
      { designer: 'b', file: '', representative: 3, clarity: 3 },
      { designer: 'c', file: '', representative: 4, satisfied: 4 },
    ]);
    assert.deepEqual(s, {
      n: 3,
      representative: 11 / 3,
      clarity: 4,
      satisfied: 4,
      answered: { representative: 3, clarity: 2, satisfied: 2 },
    });
  });

  it('written files land in runs/<id>/ratings and survey/, read back by compare; broken ones are reported, the rest count', async () => {
    const record = await readRunRecord(root, RUN_ID);
    assert.equal(
      await writeRatings(root, record, 'd1', [
        { message: 'i1-m1', score: 5 },
        { message: 'i1-m4', score: 3, comment: 'half' },
      ]),
      FILE,
    );
    await assert.rejects(writeRatings(root, record, 'd2', [{ message: 'i1-m1', score: 5 }]), /d2 rates only their own proxy's messages/);
    await writeSurvey(root, RUN_ID, { designer: 'd1', representative: 4, clarity: 5, satisfied: 4 });
    await fs.writeFile(path.join(root, 'runs', RUN_ID, 'survey', 'd2.yaml'), 'designer: d2\nrepresentative: 7\n');
    const c = await compareRun(root, RUN_ID);
    assert.equal(c.ratings.n, 2);
    assert.equal(c.ratings.mean, 4);
    assert.deepEqual(c.ratings.byDesigner, { d1: { n: 2, mean: 4 } });
    assert.deepEqual(c.survey, {
      n: 1,
      representative: 4,
      clarity: 5,
      satisfied: 4,
      answered: { representative: 1, clarity: 1, satisfied: 1 },
    });
    assert.deepEqual(c.problems, [
      `runs/${RUN_ID}/survey/d2.yaml:2:17: error: representative must be a whole number from 1 (strongly disagree) to 5 (strongly agree), found 7.`,
    ]);
    assert.ok((await fs.readdir(path.join(root, 'runs', RUN_ID, 'ratings'))).every((n) => !n.endsWith('.tmp')));
  });

  it('every file kind has the same caps: 20 000 bad ratings give 50 lines and one count line; a survey nested 200 000 deep is a sentence', async () => {
    const dir = path.join(root, 'runs', RUN_ID);
    await fs.mkdir(path.join(dir, 'ratings'), { recursive: true });
    await fs.writeFile(
      path.join(dir, 'ratings', 'd2.yaml'),
      `designer: d2\nratings:\n${'  - message: i9-m9\n    score: 9\n'.repeat(20_000)}`,
    );
    await fs.writeFile(path.join(dir, 'survey', 'd3.yaml'), `designer: d3\nrepresentative: ${'['.repeat(200_000)}\n`);
    const c = await compareRun(root, RUN_ID);
    const ratingLines = c.problems.filter((l) => l.startsWith(`runs/${RUN_ID}/ratings/d2.yaml:`));
    assert.equal(ratingLines.length, 51);
    assert.match(
      ratingLines.at(-1)!,
      /: error: … and 39950 more problems in runs\/.*\/ratings\/d2\.yaml \(only the first 50 are listed\)\.$/,
    );
    const deep = c.problems.filter((l) => l.includes('survey/d3.yaml'));
    assert.equal(deep.length, 1);
    assert.match(deep[0]!, /survey\/d3\.yaml:2:\d+: error: runs\/.*\/survey\/d3\.yaml nests lists and fields more than 64 levels deep/);
    assert.ok(!c.problems.some((l) => /Maximum call stack/.test(l)));
    await fs.rm(path.join(dir, 'ratings', 'd2.yaml'));
    await fs.rm(path.join(dir, 'survey', 'd3.yaml'));
  });

  it('per-designer files are matched to the team with the one id rule: ANA, ａｎａ beside d1, or someone not on the team are not counted', async () => {
    const survey = path.join(root, 'runs', RUN_ID, 'survey');
    await fs.mkdir(survey, { recursive: true });
    const answer = (id: string) => `designer: ${id}\nrepresentative: 5\nclarity: 5\nsatisfied: 5\n`;
    await fs.writeFile(path.join(survey, 'D1.yaml'), answer('D1'));
    await fs.writeFile(path.join(survey, 'ｄ1.yaml'), answer('ｄ1'));
    await fs.writeFile(path.join(survey, 'mallory.yaml'), answer('mallory'));
    const c = await compareRun(root, RUN_ID);
    assert.equal(c.survey.n, 1, 'only d1.yaml counts');
    const lines = c.problems.filter((l) => l.includes('/survey/') && !l.includes('/d2.yaml'));
    assert.deepEqual(
      lines.sort(),
      [
        `runs/${RUN_ID}/survey/D1.yaml:1:1: error: This file is named "D1", but the designer's id is "d1"; only d1.yaml is theirs, so this one is not counted.`,
        `runs/${RUN_ID}/survey/mallory.yaml:1:1: error: This file is named after "mallory", who is not on the team of this run (d1, d2, d3, d4); it is not counted.`,
        `runs/${RUN_ID}/survey/ｄ1.yaml:1:1: error: This file is named "ｄ1", but the designer's id is "d1"; only d1.yaml is theirs, so this one is not counted.`,
      ].sort(),
    );
    for (const n of ['D1.yaml', 'ｄ1.yaml', 'mallory.yaml']) await fs.rm(path.join(survey, n));
  });
});
