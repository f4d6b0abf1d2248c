import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic, importRankingsCsv, loadReview } from '../../../src/core/review';
import type { CsvImportResult } from '../../../src/core/review';
import { cleanupFixtures, hashTree, makeReview, rankingJson, tempDir } from './fixtures';

const HEADER = 'designer,role,weight,rank:1,justification:1,rank:2,justification:2,rank:3,justification:3';

async function csvFile(text: string | Buffer): Promise<string> {
  const file = path.join(await tempDir('tf-csv-'), 'team.csv');
  await fs.writeFile(file, text);
  return file;
}

function lines(r: CsvImportResult): string {
  return r.diagnostics.map(formatDiagnostic).join('\n');
}

describe('importRankingsCsv', () => {
  after(cleanupFixtures);

  it('writes one valid ranking file per row (slug ids, id column, BOM, quoted commas and line breaks)', async () => {
    const root = await makeReview({ rankings: null });
    const csv = await csvFile(
      `\uFEFF${HEADER},id\n` +
        'Ana Ruiz,Art Director,2,1,"Bold, warm",2,"Two\nlines",3,Flat,\n' +
        '\n' +
        'José Núñez,,,2,b,1,a,2,c,\n' +
        'Third Person,,,1,x,1,y,1,z,third\n',
    );
    const r = await importRankingsCsv(csv, root, { force: false });
    assert.equal(lines(r), '');
    assert.deepEqual(r.written, ['rankings/ana-ruiz.yaml', 'rankings/jose-nunez.yaml', 'rankings/third.yaml']);
    const loaded = await loadReview(root);
    assert.deepEqual(loaded.diagnostics, []);
    const [ana, jose, third] = loaded.review?.designers ?? [];
    assert.ok(ana && jose && third, 'three designers');
    assert.deepEqual([ana.name, ana.role, ana.weight], ['Ana Ruiz', 'Art Director', 2]);
    assert.deepEqual(
      ana.entries.map((e) => [e.option, e.rank, e.justification]),
      [
        ['1', 1, 'Bold, warm'],
        ['2', 2, 'Two\nlines'],
        ['3', 3, 'Flat'],
      ],
    );
    assert.deepEqual(
      jose.entries.map((e) => e.option),
      ['2', '1', '3'],
      'entries are written best first',
    );
    assert.equal(third.id, 'third');
    const files = await fs.readdir(path.join(root, 'rankings'));
    assert.ok(!files.some((f) => f.endsWith('.tmp')), 'no temporary file is left behind');
  });

  it('semicolon-separated exports (European Excel) work, decimal comma in weight', async () => {
    const root = await makeReview({ rankings: null });
    const csv = await csvFile(`${HEADER.replace(/,/g, ';')}\nAna;;1,5;1;a;2;b;3;c\n`);
    const r = await importRankingsCsv(csv, root, { force: false });
    assert.equal(lines(r), '');
    assert.match(await fs.readFile(path.join(root, 'rankings', 'ana.yaml'), 'utf8'), /weight: 1\.5/);
  });

  it('bad cells → errors with the CSV line and column of the cell; nothing is written', async () => {
    const root = await makeReview({ rankings: null });
    const csv = await csvFile(`${HEADER}\nAna,,,1,"multi\nline",x,b,3,c\n,,,1,a,2,b,3,\nBen,,-1,1.5,a,2,b,3,c\n`);
    const before = await hashTree(root);
    const r = await importRankingsCsv(csv, root, { force: false });
    const f = csv.split(path.sep).join('/');
    assert.deepEqual(r.written, []);
    assert.equal(await hashTree(root), before);
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), [
      `${f}:2:6: error: The rank of option "2" must be a whole number of 1 or more (found "x", column F).`,
      `${f}:4:1: error: The designer name is empty in this row.`,
      `${f}:4:9: error: The justification of option "3" is empty (column I). Write why it has this rank.`,
      `${f}:5:3: error: The weight must be a number greater than 0 (found "-1").`,
      `${f}:5:4: error: The rank of option "1" must be a whole number of 1 or more (found "1.5", column D).`,
    ]);
  });

  it('header problems: unknown option column (did you mean), missing rank/justification columns, no designer column', async () => {
    const root = await makeReview({ options: ['1.png', '2.png', 'hero-blue.png'], rankings: null });
    const csv = await csvFile('name,rank:1,justification:1,rank:hero-blu,justification:hero-blue,notes\nA,1,a,2,b,x\n');
    const r = await importRankingsCsv(csv, root, { force: false });
    const text = lines(r);
    assert.match(
      text,
      /:1:4: error: There is no option "hero-blu" in options\/ \(column D, "rank:hero-blu"\)\. Did you mean "hero-blue"\?/,
    );
    assert.match(text, /:1:0: error: The first row needs a "designer" column/);
    assert.match(text, /:1:0: error: Add a column for every option's rank: "rank:2", "rank:hero-blue" are missing\./);
    assert.match(text, /:1:0: error: Add a column for every option's justification: "justification:2" is missing\./);
    assert.match(text, /:1:1: warning: The column "name" \(column A\) is not a known column/);
    assert.deepEqual(r.written, []);
  });

  it('duplicate designer ids and unusable ids are errors', async () => {
    const root = await makeReview({ rankings: null });
    const csv = await csvFile(`${HEADER},id\nAna,,,1,a,2,b,3,c,\nana,,,1,a,2,b,3,c,\nX,,,1,a,2,b,3,c,../evil\n`);
    const text = lines(await importRankingsCsv(csv, root, { force: false }));
    assert.match(text, /:3:1: error: The designer id "ana" is used twice \(also on line 2\)/);
    assert.match(text, /:4:10: error: The id "\.\.\/evil" cannot be a file name/);
    assert.deepEqual(await fs.readdir(path.join(root, 'rankings')).catch(() => []), []);
  });

  it('existing files are skipped (warning) unless force, which rewrites them in their own format', async () => {
    const root = await makeReview({ rankings: { 'ana.json': rankingJson('Old Ana', ['3', '2', '1']) } });
    const csv = await csvFile(`${HEADER}\nAna,,,1,a,2,b,3,c\nBen,,,3,a,2,b,1,c\n`);
    const first = await importRankingsCsv(csv, root, { force: false });
    assert.deepEqual([first.written, first.skipped], [['rankings/ben.yaml'], ['rankings/ana.json']]);
    assert.match(lines(first), /:2:0: warning: rankings\/ana\.json already exists and was not changed; use --force to replace it\./);
    assert.match(await fs.readFile(path.join(root, 'rankings', 'ana.json'), 'utf8'), /Old Ana/);
    const forced = await importRankingsCsv(csv, root, { force: true });
    assert.deepEqual(forced.written, ['rankings/ana.json', 'rankings/ben.yaml']);
    const ana = JSON.parse(await fs.readFile(path.join(root, 'rankings', 'ana.json'), 'utf8')) as { designer: string };
    assert.equal(ana.designer, 'Ana');
    assert.deepEqual((await loadReview(root)).diagnostics, []);
  });

  it('empty, missing, non-UTF-8 and badly quoted CSV files → one error each, naming the file', async () => {
    const root = await makeReview({ rankings: null });
    const cases: [string | Buffer | null, RegExp][] = [
      ['', /:0:0: error: .*team\.csv is empty/],
      [null, /:0:0: error: .*does not exist or cannot be read/],
      [Buffer.from([0x64, 0x65, 0xe9, 0x0a]), /not UTF-8 text\. In your spreadsheet, export as "CSV UTF-8"/],
      [`${HEADER}\nAna,,,1,"a,2,b,3,c\n`, /:\d+:0: error: .*could not be read as CSV/],
      [`${HEADER}\n`, /has column names but no designer rows/],
    ];
    for (const [content, pattern] of cases) {
      const file = content === null ? path.join(await tempDir(), 'missing.csv') : await csvFile(content);
      const r = await importRankingsCsv(file, root, { force: false });
      assert.match(lines(r), pattern);
      assert.equal(r.written.length, 0);
    }
  });

  it('a review whose options/ is broken → error, nothing written', async () => {
    const root = await makeReview({ options: null, rankings: null });
    const r = await importRankingsCsv(await csvFile(`${HEADER}\nA,,,1,a,2,b,3,c\n`), root, { force: false });
    assert.match(lines(r), /options\/ folder is missing/);
    assert.deepEqual(r.written, []);
  });
});
