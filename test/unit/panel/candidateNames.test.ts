/**
 * One name per thing (issue 40): a candidate has one label wherever the panel shows it — the review's "Image k" for an
 * option, "remix r1d" for a remix (with its side for a fork) — a blind set's pictures go by their letters only, and a
 * remix's "made from" and its compare list the same sources.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { blindSetOf, candidateNamer, namedPieces, remixSources, type NamesInput } from '../../../src/protocol/candidateNames';
import { compareOf } from '../../../webview/panel/views/run/runOutcome';
import { sideCaption } from '../../../webview/panel/views/run/forks';
import { setAsideLines } from '../../../webview/panel/views/run/decisions';

const RUN = '2026-12-06T10-00-00-000Z';
const reviewOptions = ['hero', '2', '3', '4', '5', '6'].map((id, i) => ({
  id,
  label: `Image ${i + 1}`,
  file: `options/${id}.png`,
  src: '',
  width: 1,
  height: 1,
}));
const fork = { decisionPoint: 1, question: 'Which leads?', position: 'Image 1 leads' };
const input = (over: Partial<NamesInput> = {}): NamesInput =>
  ({
    root: path.join('reviews', 'bottle'),
    review: { options: reviewOptions },
    run: {
      id: RUN,
      options: [
        ...reviewOptions.map(({ id, label, file }) => ({ id, label, file })),
        { id: 'r1d', label: 'Image 7', file: 'iteration-1/remix-d.png' },
        { id: 'r1b', label: 'Image 8', file: 'iteration-1/remix-b.png' },
      ],
      iterations: [
        {
          index: 1,
          candidates: ['hero', '2', '3'],
          ranking: ['3', 'hero', '2'],
          remixes: [
            { id: 'r1d', letter: 'd', file: 'iteration-1/remix-d.png', from: ['hero', '5', '6'], fork },
            { id: 'r1b', letter: 'b', file: 'iteration-1/remix-b.png' },
          ],
        },
      ],
    },
    ...over,
  }) as NamesInput;

describe('panel: one name per candidate', () => {
  it('an option is the review\'s "Image k" (whatever its id); a remix is "remix r1d", never its "Image 7" or its letter', () => {
    const name = candidateNamer(input());
    assert.equal(name('hero'), 'Image 1');
    assert.equal(name('3'), 'Image 3');
    assert.equal(name('r1d'), 'remix r1d');
    assert.equal(name('r1b'), 'remix r1b');
    assert.equal(name('r2a'), 'remix r2a', 'a remix of a round not loaded yet is still a remix');
    assert.equal(name('unknown'), 'unknown');
  });

  it('a fork remix carries its side; other pictures stay as named', () => {
    const name = candidateNamer(input());
    assert.equal(name.withSide('r1d'), 'remix r1d (side: Image 1 leads)');
    assert.equal(name.withSide('r1b'), 'remix r1b');
    assert.equal(name.withSide('hero'), 'Image 1');
  });

  it("a blind set names its pictures by their letters only, never beside another picture's number", () => {
    const root = path.join('reviews', 'bottle', 'runs', RUN, 'rerank');
    assert.equal(blindSetOf(root), RUN);
    assert.equal(blindSetOf(path.join('reviews', 'bottle')), undefined);
    const letters = ['A', 'B', 'C'].map((id, i) => ({
      id,
      label: `Image ${i + 1}`,
      file: `options/${id}.png`,
      src: '',
      width: 1,
      height: 1,
    }));
    const name = candidateNamer({ root, review: { options: letters } as never });
    assert.deepEqual(['A', 'B', 'C'].map(name), ['A', 'B', 'C']);
    assert.ok(['A', 'B', 'C'].every((id) => !/\d|Image|remix/.test(name.withSide(id))));
  });

  it('the discussion\'s members saw "Image 7": the panel shows them "remix r1d" there, the words as written kept aside', () => {
    const name = candidateNamer(input());
    assert.deepEqual(
      [...name.discussionNames],
      [
        ['Image 7', 'remix r1d'],
        ['Image 8', 'remix r1b'],
      ],
    );
    assert.deepEqual(namedPieces('Image 7 beats Image 1; Image 70 is no remix, nor Image 77. <b>Image 8</b>', name.discussionNames), [
      { name: 'remix r1d', written: 'Image 7' },
      ' beats Image 1; Image 70 is no remix, nor Image 77. <b>',
      { name: 'remix r1b', written: 'Image 8' },
      '</b>',
    ]);
    assert.deepEqual(namedPieces('plain', new Map()), ['plain']);
  });

  it('"made from" and "Compare with its sources" read one list, every source shown; a compare that holds fewer says how many it shows', () => {
    const it = input().run!.iterations[0]!;
    const [d, b] = it.remixes!;
    assert.deepEqual(remixSources(it, d!), ['hero', '5', '6']);
    assert.deepEqual(compareOf(it, d!), {
      from: ['hero', '5', '6'],
      compared: ['r1d', 'hero', '5', '6'],
      button: 'Compare with its sources',
    });
    assert.deepEqual(remixSources(it, b!), ['3', 'hero'], 'an older remix without `from`: the two its round ranked first');
    assert.deepEqual(compareOf(it, b!), { from: ['3', 'hero'], compared: ['r1b', '3', 'hero'], button: 'Compare with its sources' });
    const five = compareOf(it, { id: 'r9a', from: ['1', '2', '3', '4', '5'] });
    assert.deepEqual([five.compared, five.button], [['r9a', '1', '2', '3', '4', '5'], 'Compare with its sources']);
    const many = compareOf(it, { id: 'r9b', from: ['1', '2', '3', '4', '5', '6'] });
    assert.equal(many.button, 'Compare with 5 of its 6 sources', 'a compare that cannot hold every source says so');
  });

  it("a fork side is captioned by its remix's one label; a brief fork's passage by its side letter", () => {
    const name = candidateNamer(input());
    assert.equal(sideCaption({ labelOf: name }, { id: 'r1d', letter: 'd', position: 'Image 1 leads' }), 'remix r1d: Image 1 leads');
    assert.equal(sideCaption({ labelOf: name }, { id: 'f1a', letter: 'a', position: 'short brief', passage: 'text' }), 'A: short brief');
  });

  it('what a decision set aside is named as everywhere', () => {
    const name = candidateNamer(input());
    assert.deepEqual(setAsideLines({ setAside: [{ id: 'r1b', question: 'Which leads?', decidedIn: 1 }] } as never, name), [
      'Set aside: remix r1b (not the side chosen on "Which leads?" in round 1).',
    ]);
  });

  it("no panel view makes a picture's name of its own: every label comes from the one namer", () => {
    const dir = path.resolve(__dirname, '..', '..', '..', '..', 'webview', 'panel');
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > 20, `the panel's files are read (${files.length})`);
    const made = [/`Remix \$\{/, /`remix \$\{/, /proposal \$\{[^}]*\} of/, /`Image \$\{/, /\(Image \$\{/];
    const found = files.flatMap((f) => {
      const text = readFileSync(path.join(dir, f), 'utf8');
      return made.filter((re) => re.test(text)).map((re) => `${f}: ${re}`);
    });
    assert.deepEqual(found, []);
  });
});
