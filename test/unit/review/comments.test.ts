import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic, loadReview } from '../../../src/core/review';
import type { LoadResult } from '../../../src/core/review';
import { checkCommentText, splitFrontMatter } from '../../../src/core/review/comments';
import { LIMITS } from '../../../src/core/files/reviewFiles';
import { cleanupFixtures, commentMd, hashTree, makeBriefReview, rankingYaml } from './fixtures';

function lines(r: LoadResult): string[] {
  return r.diagnostics.map(formatDiagnostic);
}

describe('brief review folder: comments/<designer-id>.md', () => {
  after(cleanupFixtures);

  it('a brief-only folder (brief.md + comments/) is a valid review: comments loaded, sorted, no options or rankings needed', async () => {
    const root = await makeBriefReview({
      'ben.md': commentMd('Ben Okafor', 'The audience is unclear.', 'role: Copywriter\nweight: 2'),
      'ana.md': commentMd('Ana Ruiz', 'The goal is awareness, not sales.\n\nTone: calm.'),
    });
    const before = await hashTree(root);
    const r = await loadReview(root);
    assert.deepEqual(lines(r), []);
    assert.equal(await hashTree(root), before);
    assert.deepEqual(r.review!.options, []);
    assert.deepEqual(r.review!.designers, []);
    assert.deepEqual(r.review!.comments, [
      { designer: 'ana', name: 'Ana Ruiz', weight: 1, body: 'The goal is awareness, not sales.\n\nTone: calm.', file: 'comments/ana.md' },
      { designer: 'ben', name: 'Ben Okafor', role: 'Copywriter', weight: 2, body: 'The audience is unclear.', file: 'comments/ben.md' },
    ]);
  });

  it('review.yaml team fills in role and weight a comment leaves out', async () => {
    const root = await makeBriefReview(
      { 'ana.md': commentMd('Ana', 'Text.') },
      { reviewYaml: 'team:\n  ana:\n    role: Lead\n    weight: 3\n' },
    );
    const r = await loadReview(root);
    assert.deepEqual(lines(r), []);
    assert.equal(r.review!.comments[0]!.role, 'Lead');
    assert.equal(r.review!.comments[0]!.weight, 3);
  });

  it('front matter problems carry the line and column of the file (the opening --- is line 1)', () => {
    const text = '---\ndesigner: Ana\nweight: -2\nrol: x\n---\nBody.\n';
    const r = checkCommentText(text, 'comments/ana.md');
    assert.equal(r.comment, undefined);
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), [
      'comments/ana.md:3:9: error: The weight must be a number greater than 0 (found -2). Leave it out for the default weight 1.',
      'comments/ana.md:4:1: warning: Unknown field "rol" is ignored. Did you mean "role"? A comment\'s front matter has designer, role and weight.',
    ]);
    assert.deepEqual(splitFrontMatter('---\na: 1\n---\nx'), { yaml: 'a: 1', body: 'x', bodyLine: 4 });
  });

  it('bad comments: no front matter, no designer:, empty body, oversized, invalid YAML → file:line:col errors', async () => {
    const root = await makeBriefReview({
      'a.md': 'Just text, no front matter.\n',
      'b.md': '---\nrole: Designer\n---\nBody.\n',
      'c.md': '---\ndesigner: Cy\n---\n\n   \n',
      'd.md': commentMd('Dee', 'x'.repeat(LIMITS.comment + 10)),
      'e.md': '---\ndesigner: [unclosed\n---\nBody\n',
    });
    const r = await loadReview(root);
    assert.equal(r.review, undefined);
    const out = lines(r);
    assert.ok(
      out.includes(
        'comments/a.md:1:1: error: The comment has no front matter. Start the file with a line ---, then designer: Your Name, then another line ---, and write the comment below it.',
      ),
      out.join('\n'),
    );
    assert.ok(
      out.some((l) => l.startsWith('comments/b.md:2:1: error: The designer field is missing.')),
      out.join('\n'),
    );
    assert.ok(
      out.some((l) => l.startsWith('comments/c.md:4:1: error: The comment has no text below the front matter.')),
      out.join('\n'),
    );
    assert.ok(
      out.some((l) => /^comments\/d\.md:0:0: error: comments\/d\.md is too large \(.*at most 100 KB\)\.$/.test(l)),
      out.join('\n'),
    );
    assert.ok(
      out.some((l) => /^comments\/e\.md:\d+:\d+: error: The front matter is not valid YAML/.test(l)),
      out.join('\n'),
    );
  });

  it('an id clash: a comment and a ranking of the same designer id (any case) with different names → error at the name', async () => {
    const root = await makeBriefReview(
      { 'Alice.md': commentMd('Alicia Keys', 'Body.'), 'bob.md': commentMd('Bob', 'Body.') },
      {
        options: ['1.png', '2.png'],
        rankings: { 'alice.yaml': rankingYaml('Alice', ['1', '2']), 'bob.yaml': rankingYaml('Bob', ['2', '1']) },
      },
    );
    const r = await loadReview(root);
    assert.deepEqual(lines(r), [
      'comments/Alice.md:2:11: error: comments/Alice.md says designer: "Alicia Keys", but rankings/alice.yaml (the same designer id) says "Alice". One id is one member: use the same name in both, or rename one file.',
    ]);
  });

  it('a folder with both comments and rankings loads both; a comment of someone with no ranking is fine (the team is the union)', async () => {
    const root = await makeBriefReview(
      { 'alice.md': commentMd('Alice', 'Body.'), 'carol.md': commentMd('Carol', 'Body.') },
      {
        options: ['1.png', '2.png'],
        rankings: { 'alice.yaml': rankingYaml('Alice', ['1', '2']), 'bob.yaml': rankingYaml('Bob', ['2', '1']) },
      },
    );
    const r = await loadReview(root);
    assert.deepEqual(lines(r), []);
    assert.deepEqual(
      r.review!.designers.map((d) => d.id),
      ['alice', 'bob'],
    );
    assert.deepEqual(
      r.review!.comments.map((c) => c.designer),
      ['alice', 'carol'],
    );
  });

  it('two comment files for one designer id (Ana.md, ana.md) → error; a non-.md file → warning', async function () {
    const root = await makeBriefReview({ 'ana.md': commentMd('Ana', 'x'), 'notes.txt': 'x' });
    await fs.writeFile(path.join(root, 'comments', 'ANA.md'), commentMd('Ana', 'y'));
    const names = await fs.readdir(path.join(root, 'comments'));
    if (!names.includes('ana.md') || !names.includes('ANA.md')) this.skip(); // case-insensitive file system
    const out = lines(await loadReview(root));
    assert.ok(
      out.some((l) => /^comments\/ana\.md:0:0: error: comments\/ana\.md and comments\/ANA\.md are both for the designer id "ana"/.test(l)),
      out.join('\n'),
    );
    assert.ok(
      out.includes('comments/notes.txt:0:0: warning: comments/notes.txt is not a .md comment file and is ignored.'),
      out.join('\n'),
    );
  });

  it('links and FIFOs under comments/: a link out of the review and a FIFO are refused (nothing read); a link inside is read', async function () {
    if (process.platform === 'win32') this.skip();
    const root = await makeBriefReview({ 'ana.md': commentMd('Ana', 'Body.') }, { extra: { 'notes/ben.md': commentMd('Ben', 'Inside.') } });
    const outside = await fs.mkdtemp(path.join(path.dirname(root), 'tf-outside-'));
    await fs.writeFile(path.join(outside, 'secret.md'), commentMd('Eve', 'Secret.'));
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'comments', 'eve.md'));
    await fs.symlink(path.join(root, 'notes', 'ben.md'), path.join(root, 'comments', 'ben.md'));
    execFileSync('mkfifo', [path.join(root, 'comments', 'fifo.md')]);
    const started = Date.now();
    const r = await loadReview(root);
    const out = lines(r);
    assert.ok(
      out.some((l) => /^comments\/eve\.md:0:0: error: comments\/eve\.md leads outside the review folder/.test(l)),
      out.join('\n'),
    );
    assert.ok(
      out.some((l) => /^comments\/fifo\.md:0:0: error: comments\/fifo\.md is a named pipe \(FIFO\)/.test(l)),
      out.join('\n'),
    );
    assert.equal(out.filter((l) => l.includes('ben.md')).length, 0, out.join('\n'));
    assert.ok(!JSON.stringify(r).includes('Secret.'));
    console.log(`      (loaded with a FIFO under comments/ in ${Date.now() - started} ms)`);
    await fs.rm(outside, { recursive: true, force: true });
  });
});
