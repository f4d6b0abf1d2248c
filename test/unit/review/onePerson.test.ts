/**
 * One person, one ranking (and one comment): a file copied under another id — the same `designer:` name, however it is
 * spelt in case or spaces — is an error at the second file naming the first, and that person counts once.
 */
import * as assert from 'node:assert/strict';
import { formatDiagnostic, loadReview } from '../../../src/core/review';
import { cleanupFixtures, commentMd, makeBriefReview, makeReview, rankingJson, rankingYaml } from './fixtures';

const ORDER = ['1', '2', '3'];

describe('one person, one ranking', () => {
  after(cleanupFixtures);

  it('the same designer name in two ranking files: an error at the second, naming the first; counted once', async () => {
    const root = await makeReview({
      rankings: {
        'ben.yaml': rankingYaml('Ben Okafor', ORDER),
        'ben-okafor.yaml': rankingYaml('ben  okafor', ['3', '2', '1']),
        'cleo.yaml': rankingYaml('Cleo', ['2', '1', '3']),
      },
    });
    const r = await loadReview(root, { requireRankings: true });
    const errors = r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
    assert.deepEqual(errors, [
      'rankings/ben.yaml:1:1: error: designer "Ben Okafor" is the same person as in rankings/ben-okafor.yaml: one person, one ranking. Keep one of the two files (merge them), or correct the name if they are two people.',
    ]);
    assert.equal(r.review, undefined, 'an error in rankings/ stops the review from loading, as every ranking error does');
  });

  it('a JSON copy of a YAML ranking is caught too, at its designer field', async () => {
    const root = await makeReview({
      rankings: { 'ana.yaml': rankingYaml('Ana', ORDER), 'zed.json': rankingJson('ANA', ORDER), 'bo.yaml': rankingYaml('Bo', ORDER) },
    });
    const r = await loadReview(root, { requireRankings: true });
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.file, 'rankings/zed.json');
    assert.ok(errors[0]!.line >= 1 && errors[0]!.column >= 1);
    assert.match(errors[0]!.message, /same person as in rankings\/ana\.yaml/);
  });

  it('two people of different names are two people', async () => {
    const root = await makeReview({ rankings: { 'ana.yaml': rankingYaml('Ana', ORDER), 'ana2.yaml': rankingYaml('Ana B.', ORDER) } });
    const r = await loadReview(root, { requireRankings: true });
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.equal(r.review?.designers.length, 2);
  });

  it('comments: the same member under two ids is an error at the second file, naming the first', async () => {
    const root = await makeBriefReview({
      'ana.md': commentMd('Ana Lima', 'First.'),
      'lima.md': commentMd('Ana Lima', 'Again.'),
      'bo.md': commentMd('Bo', 'Other.'),
    });
    const r = await loadReview(root);
    const errors = r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
    assert.deepEqual(errors, [
      'comments/lima.md:2:1: error: designer "Ana Lima" is the same person as in comments/ana.md: one person, one comment. Keep one of the two files (merge them), or correct the name if they are two people.',
    ]);
  });
});
