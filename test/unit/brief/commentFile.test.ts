import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { addToCommentFile, appendQuote, commentRel, defaultMemberId, quoteLines } from '../../../src/core/review/commentFile';
import { checkCommentText } from '../../../src/core/review/comments';
import { formatDiagnostic, isReviewFolder, loadReview, scaffoldReview } from '../../../src/core/review';
import { cleanupFixtures, SAMPLE, tempDir } from '../review/fixtures';

const BRIEF = '# Lumen\n\nLaunch a perfume.\n\nAudience: 25–35.\nTone: calm   \n';

describe('comment files: paths', () => {
  it('comments/<id>.md only for a designer id', () => {
    assert.equal(commentRel('ana-ruiz'), 'comments/ana-ruiz.md');
    assert.throws(() => commentRel('../x'), /not a designer id/);
    assert.throws(() => commentRel(''), /not a designer id/);
  });
});

describe('comment files: quoting the selected lines', () => {
  it('quotes a range with its line numbers; blank lines as ">" and trailing spaces dropped', () => {
    assert.equal(quoteLines(BRIEF, 3, 6), '> brief.md L3–L6:\n> Launch a perfume.\n>\n> Audience: 25–35.\n> Tone: calm\n');
  });
  it('one line is "L<n>"; a reversed or out-of-range selection is clamped', () => {
    assert.equal(quoteLines(BRIEF, 1, 1), '> brief.md L1:\n> # Lumen\n');
    assert.equal(quoteLines(BRIEF, 6, 5), '> brief.md L5–L6:\n> Audience: 25–35.\n> Tone: calm\n');
    assert.equal(quoteLines('a\nb', 9, 12), '> brief.md L2:\n> b\n');
  });
  it('appends after one blank line and leaves an empty line for the member', () => {
    assert.equal(
      appendQuote('---\ndesigner: A\n---\n\nMy text\n\n\n', '> brief.md L1:\n> x\n'),
      '---\ndesigner: A\n---\n\nMy text\n\n> brief.md L1:\n> x\n\n',
    );
    assert.equal(appendQuote('', '> q\n'), '> q\n\n');
    assert.equal(appendQuote('a\r\nb\r\n', '> q\n'), 'a\r\nb\r\n\r\n> q\r\n\r\n');
  });
});

describe('comment files: who is commenting', () => {
  const members = [
    { id: 'ana', name: 'Ana Ruiz' },
    { id: 'straße', name: 'Bernd Straße' },
  ];
  it('matches git user.name to a member by the one designer-id rule', () => {
    assert.equal(defaultMemberId('Ana Ruiz', members), 'ana');
    assert.equal(defaultMemberId('ANA', members), 'ana');
    assert.equal(defaultMemberId('STRASSE', members), 'straße');
  });
  it('else the id made from the name; nothing without a usable name', () => {
    assert.equal(defaultMemberId('Chloé Martin', members), 'chloe-martin');
    assert.equal(defaultMemberId('', members), undefined);
    assert.equal(defaultMemberId(undefined, members), undefined);
    assert.equal(defaultMemberId('***', members), undefined);
  });
});

describe('comment files: writing through the file room', () => {
  after(cleanupFixtures);

  it('creates the file with front matter and the quote, then appends the next quote', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'brief.md'), BRIEF);
    const first = await addToCommentFile(root, 'ana', { name: 'Ana Ruiz' }, quoteLines(BRIEF, 3, 3));
    assert.deepEqual(first, { file: 'comments/ana.md', created: true });
    const second = await addToCommentFile(root, 'ana', { name: 'ignored' }, quoteLines(BRIEF, 5, 6));
    assert.equal(second.created, false);
    assert.equal(
      await fs.readFile(path.join(root, 'comments', 'ana.md'), 'utf8'),
      '---\ndesigner: "Ana Ruiz"\n---\n\n> brief.md L3:\n> Launch a perfume.\n\n> brief.md L5–L6:\n> Audience: 25–35.\n> Tone: calm\n\n',
    );
  });

  it('a new file is what the loader accepts: the name with YAML syntax in it stays one string, the quote is the body', async () => {
    const root = await tempDir();
    await addToCommentFile(root, 'ana', { name: 'Ana: "the" Lead #1', role: 'Art Director' }, quoteLines(BRIEF, 1, 1));
    const text = await fs.readFile(path.join(root, 'comments', 'ana.md'), 'utf8');
    const checked = checkCommentText(text, 'comments/ana.md');
    assert.deepEqual(checked.diagnostics, []);
    assert.equal(checked.comment?.name, 'Ana: "the" Lead #1');
    assert.equal(checked.comment?.role, 'Art Director');
    assert.equal(checked.comment?.body, '> brief.md L1:\n> # Lumen');
  });

  it('without a quote: creates once, never rewrites an existing file', async () => {
    const root = await tempDir();
    assert.equal((await addToCommentFile(root, 'bo', { name: 'Bo', role: 'Strategist' })).created, true);
    await fs.writeFile(path.join(root, 'comments', 'bo.md'), 'mine');
    assert.equal((await addToCommentFile(root, 'bo', { name: 'Bo' })).created, false);
    assert.equal(await fs.readFile(path.join(root, 'comments', 'bo.md'), 'utf8'), 'mine');
  });

  it('refuses comments/ that leads outside the review, writing nothing there', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await fs.symlink(outside, path.join(root, 'comments'));
    await assert.rejects(addToCommentFile(root, 'ana', { name: 'Ana' }, '> q\n'), /outside the review/);
    assert.deepEqual(await fs.readdir(outside), []);
  });

  it('refuses to append to a comment file that is too large', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'comments'));
    await fs.writeFile(path.join(root, 'comments', 'big.md'), 'x'.repeat(300 * 1024));
    await assert.rejects(addToCommentFile(root, 'big', { name: 'Big' }, '> q\n'), /too large/);
  });
});

describe('New Review: brief review template', () => {
  after(cleanupFixtures);
  it('brief.md, review.yaml and comments/ with an example; no options/ or rankings/; a review folder', async () => {
    const target = await tempDir();
    await scaffoldReview(target, 'brief', SAMPLE);
    assert.deepEqual((await fs.readdir(target)).sort(), ['brief.md', 'comments', 'review.yaml']);
    assert.equal(await isReviewFolder(target), true);
    const r = await loadReview(target);
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), [], 'the new brief review validates clean');
    assert.deepEqual(
      r.review?.comments.map((c) => [c.designer, c.name, c.role]),
      [['example-member', 'Example Member', 'Copywriter']],
    );
    assert.ok((r.review?.comments[0]?.body ?? '').length > 0, 'the example has a body');
  });
});
