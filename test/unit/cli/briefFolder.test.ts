import * as assert from 'node:assert/strict';
import { useBuiltCli } from './buildCli';
import { cleanupFixtures, commentMd, makeBriefReview } from '../review/fixtures';

describe('CLI: a brief-only review folder (validate / analyze)', function () {
  this.timeout(60_000);
  const { run } = useBuiltCli();
  after(cleanupFixtures);

  it('validate: exit 0, "valid — 2 comments on the brief"', async () => {
    const root = await makeBriefReview({ 'ana.md': commentMd('Ana', 'Body.'), 'ben.md': commentMd('Ben', 'Body.') });
    const r = await run('validate', root);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /valid — 2 comments on the brief\./);
  });

  it('validate: a bad comment → its diagnostic line, exit 1', async () => {
    const root = await makeBriefReview({ 'ana.md': 'no front matter\n' });
    const r = await run('validate', root);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^comments\/ana\.md:1:1: error: The comment has no front matter\./m);
  });

  it('analyze: says there is nothing to rank and lists the comments in aligned columns; --json has task brief and kendall null', async () => {
    const root = await makeBriefReview({
      'ana.md': commentMd('Ana', 'Three words here.', 'role: Lead'),
      'ben.md': commentMd('Ben', 'Body.'),
    });
    const text = await run('analyze', root);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /A brief review: 2 comments on the brief and no rankings, so there is no agreement to analyse\./);
    assert.match(text.stdout, /ana {2}Ana \(Lead\) {2}3 words/);
    // The columns line up: every row's word count ends at the same column.
    const rows = text.stdout.split('\n').filter((l) => l.endsWith(' words'));
    assert.equal(rows.length, 2);
    assert.equal(rows[0]?.length, rows[1]?.length, rows.join('\n'));
    const json = await run('analyze', root, '--json');
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { task: string; kendall: null; comments: { designer: string; words: number }[] };
    assert.equal(parsed.task, 'brief');
    assert.equal(parsed.kendall, null);
    assert.deepEqual(
      parsed.comments.map((c) => [c.designer, c.words]),
      [
        ['ana', 3],
        ['ben', 1],
      ],
    );
  });
});
